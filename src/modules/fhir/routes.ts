import { createHash } from "node:crypto";
import Type from "typebox";
import { requestContextOf } from "../../platform/context.js";
import { AppError } from "../../platform/http/errors.js";
import type { AreaPlugin } from "../../platform/http/plugin.js";
import { TenantParam } from "../../platform/http/tenant-auth.js";
import { capabilityStatementOf } from "./capability.js";
import { processMessage } from "./service.js";
import { subscribeFhirArea } from "./subscriptions.js";

const tags = ["NPHIES FHIR"];
const FHIR_JSON = "application/fhir+json";
const Resource = (description: string) =>
  Type.Object({ resourceType: Type.String() }, { additionalProperties: true, description });
const OperationOutcome = Resource("an OperationOutcome: one issue per problem, its element by FHIRPath");
const errors = Object.fromEntries([400, 401, 404, 409, 415].map((status) => [status, OperationOutcome]));

/** deeper than any NPHIES message (a batch of bundles of resources is about 20 levels): refused before it
 * reaches code that walks it recursively */
const MAX_DEPTH = 100;

/** how deeply a parsed JSON value nests, measured without recursion */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== "object") continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** the largest message NPHIES carries */
const MESSAGE_LIMIT = 10 * 1024 * 1024;
const JSON_TYPES = new Set([FHIR_JSON, "application/json"]);

declare module "fastify" {
  interface FastifyRequest {
    /** sha-256 of a FHIR message's bytes as received: a resend carries the same */
    messageHash: string;
  }
}

/** the FHIR interface of a tenant, under /{tenant}/fhir with its access-key (README "NPHIES FHIR interface") */
export const fhirRoutes: AreaPlugin = async (app, { db, jobs }) => {
  subscribeFhirArea();
  // FHIR JSON only (application/json is taken too), up to NPHIES's 10 MB a message; anything else is 415
  app.addHook("onRequest", async (request) => {
    const type = request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
    if (type === undefined || !JSON_TYPES.has(type))
      throw new AppError("E_UNSUPPORTED_MEDIA_TYPE_415", `Send ${FHIR_JSON}`);
  });
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.decorateRequest("messageHash", "");
  app.removeContentTypeParser([...JSON_TYPES].filter((type) => app.hasContentTypeParser(type)));
  app.addContentTypeParser(
    [...JSON_TYPES],
    { parseAs: "string", bodyLimit: MESSAGE_LIMIT },
    (request, body, done) => {
      const text = body.toString();
      request.messageHash = createHash("sha256").update(text).digest("hex");
      parseJson(request, text, (error, parsed) => {
        if (error === null && depthOf(parsed) > MAX_DEPTH)
          return done(
            new AppError("E_BAD_REQUEST_400", `Bundle: nested deeper than ${MAX_DEPTH} levels`, [
              `Bundle: nested deeper than ${MAX_DEPTH} levels: no NPHIES message is`,
            ]),
          );
        done(error, parsed);
      });
    },
  );

  app.post(
    "/$process-message",
    {
      schema: {
        tags,
        summary:
          "Process a NPHIES request message (priorauth-request, claim-request, eligibility-request): answered with its response message",
        // checked by the message reader, which names each problem by FHIRPath (a 400 OperationOutcome)
        body: Type.Unknown({ description: "a FHIR R4 message Bundle as NPHIES sends it to a payer" }),
        // sent as the JSON text it was stored as: a resend gets the same bytes
        response: { 200: Type.Unsafe<string>(Resource("the response message Bundle")), ...errors },
      },
    },
    async (request, reply) => {
      // the message's JSON text, sent as it is stored for resends
      const response = await processMessage(
        requestContextOf(request, { db, jobs }),
        request.body,
        request.messageHash,
      );
      return reply.type(FHIR_JSON).send(response);
    },
  );
};

/** the CapabilityStatement: public, as FHIR clients read it before they authenticate */
export const fhirMetadataRoutes: AreaPlugin = async (app, { config }) => {
  app.get(
    "/:tenant/fhir/metadata",
    {
      schema: {
        tags,
        summary: "The CapabilityStatement of the tenant's FHIR endpoint",
        params: Type.Object({ tenant: TenantParam }),
        response: { 200: Resource("CapabilityStatement") },
      },
    },
    async (request, reply) =>
      reply
        .type(FHIR_JSON)
        .send(capabilityStatementOf(`${config.publicUrl}/${request.params.tenant}/fhir`, new Date())),
  );
};
