import type { ModuleRoutes } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { UserCreateBody, UserCreated, UserFindAllQuery, UserPage } from "./schemas.js";
import * as users from "./service.js";

const tags = ["User"];

export const userRoutes: ModuleRoutes = async (app, { db }) => {
  app.post(
    "/user/create",
    {
      schema: {
        tags,
        summary: "Create a reviewer user (docs/operator-contract.md section 6)",
        body: UserCreateBody,
        response: { 201: UserCreated, ...errorResponses([400, 401, 409]) },
      },
    },
    async (request, reply) => {
      const user = await users.createUser(db, request.actor, request.body);
      return reply
        .status(201)
        .send({ id: user.id, username: user.username, code: 201, message: "User created successfully" });
    },
  );

  app.get(
    "/user/find-all",
    {
      schema: {
        tags,
        summary: "List reviewer users",
        querystring: UserFindAllQuery,
        response: { 200: UserPage, ...errorResponses([400, 401]) },
      },
    },
    async (request) => {
      const page = await users.findUsers(db, request.tenant.id, request.query);
      return { total_count: page.total, code: 200, message: "Users retrieved successfully", data: page.rows };
    },
  );
};
