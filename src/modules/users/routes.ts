import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import {
  Message,
  UserCreateBody,
  UserCreated,
  UserFindAllQuery,
  UserPage,
  UserParams,
  UserUpdateBody,
} from "./schemas.js";
import * as users from "./service.js";

const tags = ["User"];

export const userRoutes: AreaPlugin = async (app, { db }) => {
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

  app.patch(
    "/user/:username",
    {
      schema: {
        tags,
        summary: "Change a reviewer user: password, name, e-mail, active (beyond the spec)",
        params: UserParams,
        body: UserUpdateBody,
        response: { 200: Message, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      await users.updateUser(db, request.actor, request.params.username, request.body);
      return { code: 200, message: "User updated successfully" };
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
