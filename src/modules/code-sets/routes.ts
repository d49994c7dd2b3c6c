import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { type CodeSetEntry, parseCodeSetText } from "../../reference/code-set-file.js";
import {
  CodeLookup,
  CodeSetList,
  ImportBody,
  ImportQuery,
  ImportResult,
  SystemCodeParams,
  SystemParams,
} from "./schemas.js";
import * as codeSets from "./service.js";

const tags = ["Code set"];
/** a full ICD-10-CM list is about 4 MB of TSV; leave room for fuller sets with long descriptions */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

export const codeSetRoutes: AreaPlugin = async (app, { db }) => {
  app.addContentTypeParser(
    ["text/tab-separated-values", "text/csv", "text/plain"],
    { parseAs: "string", bodyLimit: IMPORT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    "/code-set/:system/import",
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: "Load a code set (TSV, CSV or JSON) (docs/operator-contract.md section 6)",
        params: SystemParams,
        querystring: ImportQuery,
        body: ImportBody,
        response: { 200: ImportResult, ...errorResponses([400, 401, 413, 415]) },
      },
    },
    async (request) => {
      let entries: CodeSetEntry[];
      let where: (index: number) => string;
      if (typeof request.body === "string") {
        const parsed = parseCodeSetText(request.body);
        entries = parsed.entries;
        where = (index) => `line ${parsed.lines[index]}`;
      } else {
        entries = request.body;
        where = (index) => `[${index}]`;
      }
      return codeSets.importCodeSet(db, request.actor, request.params.system, entries, {
        mode: request.query.mode,
        where,
      });
    },
  );

  app.get(
    "/code-set",
    {
      schema: {
        tags,
        summary: "The tenant's loaded code sets",
        response: { 200: CodeSetList, ...errorResponses([401]) },
      },
    },
    async (request) => {
      const sets = await codeSets.listCodeSets(db, request.tenant.id);
      return { data: sets.map((set) => ({ ...set, updated_at: set.updated_at.toISOString() })) };
    },
  );

  app.get(
    "/code-set/:system/:code",
    {
      schema: {
        tags,
        summary: "Look a code up as prior authorization does (404 E_EPA_02 when unknown)",
        params: SystemCodeParams,
        response: { 200: CodeLookup, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const found = await codeSets.requireDiagnosis(db, request.tenant.id, request.params.code);
      return {
        system: request.params.system,
        code: found.code,
        description: found.description,
        matched_by: found.matchedBy,
      };
    },
  );
};
