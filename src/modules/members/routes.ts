import { type AreaPlugin, useErrorShape } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { MemberCreateBody, MemberCreated, MemberIdParams, MemberUpdateBody, MemberView } from "./schemas.js";
import * as members from "./service.js";

const tags = ["Member"];

export const memberRoutes: AreaPlugin = async (app, { db }) => {
  useErrorShape(app, "member");

  app.post(
    "/member/create",
    {
      schema: {
        tags,
        summary: "Create a member (patient)",
        body: MemberCreateBody,
        response: { 201: MemberCreated, ...errorResponses([400, 401, 409]) },
      },
    },
    async (request, reply) => {
      const member = await members.createMember(db, request.actor, request.body);
      return reply.status(201).send({
        member_id: member.member_id,
        name: member.name,
        code: 201,
        message: "Member created successfully",
      });
    },
  );

  app.patch(
    "/member/:member_id",
    {
      schema: {
        tags,
        summary: "Update a member; only the fields sent change",
        params: MemberIdParams,
        body: MemberUpdateBody,
        response: { 200: MemberView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const member = await members.updateMember(db, request.actor, request.params.member_id, request.body);
      return { ...members.presentMember(member), code: 200, message: "Member updated successfully" };
    },
  );

  app.get(
    "/member/:member_id",
    {
      schema: {
        tags,
        summary: "Read one member (beyond the spec)",
        params: MemberIdParams,
        response: { 200: MemberView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const member = await members.getMember(db, request.tenant.id, request.params.member_id);
      return { ...members.presentMember(member), code: 200, message: "Member retrieved successfully" };
    },
  );
};
