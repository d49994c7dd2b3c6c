import type { AreaPlugin } from "../../../platform/http/plugin.js";
import { errorResponses } from "../../../platform/http/schemas.js";
import { ForClaimBody, ForPreauthBody, SupportingInfoCreated } from "./schemas.js";
import { addSupportingInfo } from "./service.js";

const tags = ["Supporting info"];

export const supportingInfoRoutes: AreaPlugin = async (app, { db }) => {
  app.post(
    "/supporting-info/create-for-preauth",
    {
      schema: {
        tags,
        summary: "Attach supporting information to a prior authorization",
        body: ForPreauthBody,
        response: { 201: SupportingInfoCreated, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request, reply) => {
      const id = await addSupportingInfo(db, request.actor, { kind: "PREAUTH", input: request.body });
      return reply.status(201).send({ id, code: 201, message: "Supporting info created successfully" });
    },
  );

  app.post(
    "/supporting-info/create-for-claim",
    {
      schema: {
        tags,
        summary: "Attach supporting information to a claim (a request submitted with transaction_type CLAIM)",
        body: ForClaimBody,
        response: { 201: SupportingInfoCreated, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request, reply) => {
      const id = await addSupportingInfo(db, request.actor, { kind: "CLAIM", input: request.body });
      return reply.status(201).send({ id, code: 201, message: "Supporting info created successfully" });
    },
  );
};
