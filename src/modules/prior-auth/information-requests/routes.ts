import { requestContextOf } from "../../../platform/context.js";
import type { AreaPlugin } from "../../../platform/http/plugin.js";
import { errorResponses } from "../../../platform/http/schemas.js";
import { InformationRequestBody, InformationRequestCreated } from "./schemas.js";
import { createInformationRequest } from "./service.js";

export const informationRequestRoutes: AreaPlugin = async (app, { db, jobs }) => {
  app.post(
    "/communication-request/create",
    {
      schema: {
        tags: ["Communication"],
        summary:
          "A reviewer asks the provider for information (NPHIES communication-request); the status does not change",
        body: InformationRequestBody,
        response: { 201: InformationRequestCreated, ...errorResponses([400, 401, 404, 422]) },
      },
    },
    async (request, reply) => {
      const id = await createInformationRequest(requestContextOf(request, { db, jobs }), request.body);
      return reply.status(201).send({ id, code: 201, message: "Communication request created successfully" });
    },
  );
};
