import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { HealthDeclarationCreateBody, HealthDeclarationCreated } from "./schemas.js";
import * as declarations from "./service.js";

const tags = ["Health declaration"];

export const healthDeclarationRoutes: AreaPlugin = async (app, { db }) => {
  app.post(
    "/health-declarations/create",
    {
      schema: {
        tags,
        summary: "Record a member's health declaration under a policy holder's policy",
        body: HealthDeclarationCreateBody,
        response: { 201: HealthDeclarationCreated, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request, reply) => {
      const id = await declarations.createHealthDeclaration(db, request.actor, request.body);
      return reply.status(201).send({
        health_declaration_internal_id: id,
        code: 201,
        message: "Health declaration created successfully",
      });
    },
  );
};
