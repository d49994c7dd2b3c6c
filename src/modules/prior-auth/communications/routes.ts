import type { AreaPlugin } from "../../../platform/http/plugin.js";
import { errorResponses } from "../../../platform/http/schemas.js";
import { CommunicationBody, CommunicationCreated } from "./schemas.js";
import { createCommunication } from "./service.js";

export const communicationRoutes: AreaPlugin = async (app, { db, jobs }) => {
  app.post(
    "/communication/create",
    {
      schema: {
        tags: ["Communication"],
        summary: "Send a communication: the prior authorization returns to PENDING and is re-evaluated",
        body: CommunicationBody,
        response: { 201: CommunicationCreated, ...errorResponses([400, 401, 404, 422]) },
      },
    },
    async (request, reply) => {
      const id = await createCommunication(db, jobs, request.actor, request.body);
      return reply.status(201).send({ id, code: 201, message: "Communication created successfully" });
    },
  );
};
