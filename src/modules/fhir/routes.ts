import Type from "typebox";
import { requestContextOf } from "../../platform/context.js";
import type { ModuleRoutes } from "../../platform/http/plugin.js";
import { capabilityStatementOf } from "./capability.js";
import { processMessage } from "./service.js";

const tags = ["NPHIES FHIR"];
const FHIR_JSON = "application/fhir+json";
const Resource = (description: string) =>
  Type.Object({ resourceType: Type.String() }, { additionalProperties: true, description });
const OperationOutcome = Resource("an OperationOutcome: one issue per problem, its element by FHIRPath");
const errors = Object.fromEntries([400, 401, 404, 409, 415].map((status) => [status, OperationOutcome]));

/** the FHIR interface of a tenant, under /{tenant}/fhir with its access-key (README "NPHIES FHIR interface") */
export const fhirRoutes: ModuleRoutes = async (app, { db, jobs }) => {
  app.post(
    "/$process-message",
    {
      schema: {
        tags,
        summary:
          "Process a NPHIES request message (priorauth-request, claim-request, eligibility-request): answered with its response message",
        // checked by the message reader, which names each problem by FHIRPath (a 400 OperationOutcome)
        body: Type.Unknown({ description: "a FHIR R4 message Bundle as NPHIES sends it to a payer" }),
        response: { 200: Resource("the response message Bundle"), ...errors },
      },
    },
    async (request, reply) => {
      const response = await processMessage(requestContextOf(request, { db, jobs }), request.body);
      return reply.type(FHIR_JSON).send(response);
    },
  );
};

/** the CapabilityStatement: public, as FHIR clients read it before they authenticate */
export const fhirMetadataRoutes: ModuleRoutes = async (app, { config }) => {
  app.get(
    "/:tenant/fhir/metadata",
    {
      schema: {
        tags,
        summary: "The CapabilityStatement of the tenant's FHIR endpoint",
        params: Type.Object({ tenant: Type.String({ pattern: "^[a-z0-9-]{1,63}$" }) }),
        response: { 200: Resource("CapabilityStatement") },
      },
    },
    async (request, reply) =>
      reply
        .type(FHIR_JSON)
        .send(capabilityStatementOf(`${config.publicUrl}/${request.params.tenant}/fhir`, new Date())),
  );
};
