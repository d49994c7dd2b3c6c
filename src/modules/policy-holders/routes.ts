import { type AreaPlugin, useErrorShape } from "../../platform/http/plugin.js";
import { errorResponses, PolicyHolderErrorBody } from "../../platform/http/schemas.js";
import {
  PhErpIdParams,
  PolicyHolderCreateBody,
  PolicyHolderCreated,
  PolicyHolderFound,
  PolicyHolderUpdateBody,
  PolicyHolderUpdated,
} from "./schemas.js";
import * as holders from "./service.js";

const tags = ["Policy holder"];

export const policyHolderRoutes: AreaPlugin = async (app, { db }) => {
  useErrorShape(app, "policyHolder");

  app.post(
    "/policy-holder/create",
    {
      schema: {
        tags,
        summary: "Create a policy holder",
        body: PolicyHolderCreateBody,
        response: { 201: PolicyHolderCreated, ...errorResponses([400, 401, 409], PolicyHolderErrorBody) },
      },
    },
    async (request, reply) => {
      const holder = await holders.createPolicyHolder(db, request.actor, request.body);
      return reply
        .status(201)
        .send({ ERPCode: holder.ph_erp_id, code: 201, message: "Policy holder created successfully" });
    },
  );

  app.patch(
    "/policy-holder/update",
    {
      schema: {
        tags,
        summary: "Update a policy holder named by its ph_erp_id (identifier)",
        body: PolicyHolderUpdateBody,
        response: {
          200: PolicyHolderUpdated,
          ...errorResponses([400, 401, 404, 409], PolicyHolderErrorBody),
        },
      },
    },
    async (request) => {
      const holder = await holders.updatePolicyHolder(db, request.actor, request.body);
      return { message: "Policy holder updated successfully", data: holder };
    },
  );

  app.get(
    "/policy-holder/:ph_erp_id",
    {
      schema: {
        tags,
        summary: "Read one policy holder (beyond the spec)",
        params: PhErpIdParams,
        response: { 200: PolicyHolderFound, ...errorResponses([400, 401, 404], PolicyHolderErrorBody) },
      },
    },
    async (request) => {
      const holder = await holders.getPolicyHolder(db, request.tenant.id, request.params.ph_erp_id);
      return { code: 200, message: "Policy holder retrieved successfully", data: holder };
    },
  );
};
