import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { forgetOnAnnouncement } from "./engine-settings.js";
import {
  EditsImportBody,
  EditsImported,
  EditsImportQuery,
  FwaSettingsBody,
  FwaSettingsView,
  SettingsBody,
  SettingsView,
} from "./schemas.js";
import {
  getFwaSettings,
  getSettings,
  importDiagnosisEdits,
  parseMceEdits,
  updateFwaSettings,
  updateSettings,
} from "./service.js";

const tags = ["Adjudication settings"];
const EDITS_BODY_LIMIT = 16 * 1024 * 1024;

export const adjudicationSettingsRoutes: AreaPlugin = async (app, { db }) => {
  // adjudication reads this node's memory of the settings: other nodes' changes make it forget
  app.addHook("onClose", await forgetOnAnnouncement(db));
  app.addContentTypeParser(
    "text/tab-separated-values",
    { parseAs: "string", bodyLimit: EDITS_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.get(
    "/settings/prior-auth",
    {
      schema: {
        tags,
        summary: "The engine's settings of this tenant (beyond the spec)",
        response: { 200: SettingsView, ...errorResponses([401]) },
      },
    },
    async (request) => ({ ...(await getSettings(db, request.tenant.id)), code: 200, message: "Settings" }),
  );

  app.patch(
    "/settings/prior-auth",
    {
      schema: {
        tags,
        summary:
          "Change the engine's settings: auto-approval threshold, follow-up and duplicate windows, retention",
        body: SettingsBody,
        response: { 200: SettingsView, ...errorResponses([400, 401]) },
      },
    },
    async (request) => ({
      ...(await updateSettings(db, request.actor, request.body)),
      code: 200,
      message: "Settings updated successfully",
    }),
  );

  app.get(
    "/settings/fwa",
    {
      schema: {
        tags,
        summary: "The claims batch screening's flag threshold of this tenant (beyond the spec)",
        response: { 200: FwaSettingsView, ...errorResponses([401]) },
      },
    },
    async (request) => ({ ...(await getFwaSettings(db, request.tenant.id)), code: 200, message: "Settings" }),
  );

  app.patch(
    "/settings/fwa",
    {
      schema: {
        tags,
        summary:
          "Change the flag threshold of the claims batch screening (applies to batches analysed after)",
        body: FwaSettingsBody,
        response: { 200: FwaSettingsView, ...errorResponses([400, 401]) },
      },
    },
    async (request) => ({
      ...(await updateFwaSettings(db, request.actor, request.body)),
      code: 200,
      message: "Settings updated successfully",
    }),
  );

  app.post(
    "/diagnosis-edits/import",
    {
      bodyLimit: EDITS_BODY_LIMIT,
      schema: {
        tags,
        summary:
          "Load diagnosis edits (CMS MCE TSV, or JSON): sex and age limits that override the built-in facts",
        querystring: EditsImportQuery,
        body: EditsImportBody,
        response: { 200: EditsImported, ...errorResponses([400, 401, 413, 415]) },
      },
    },
    async (request) => {
      const parsed =
        typeof request.body === "string" ? parseMceEdits(request.body) : { edits: request.body, skipped: 0 };
      const result = await importDiagnosisEdits(db, request.actor, parsed.edits, {
        mode: request.query.mode ?? "merge",
        skipped: parsed.skipped,
      });
      return { ...result, code: 200, message: "Diagnosis edits imported successfully" };
    },
  );
};
