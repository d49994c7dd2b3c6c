import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import type { PolicyRow } from "./repo.js";
import {
  PatientPolicyKeyQuery,
  PatientPolicyUpdateBody,
  PatientPolicyView,
  PolicyCreateBody,
  PolicyKeyQuery,
  PolicyUpdateBody,
  PolicyView,
} from "./schemas.js";
import * as policies from "./service.js";

const tags = ["Policy"];

function presentPolicy(policy: PolicyRow, phErpId: string) {
  const { id: _id, policy_holder_id: _holder, ...fields } = policy;
  return { ...fields, ph_erp_id: phErpId };
}

export const policyRoutes: AreaPlugin = async (app, { db }) => {
  app.post(
    "/policy/create",
    {
      schema: {
        tags,
        summary: "Create a policy, optionally adding a patient to it",
        body: PolicyCreateBody,
        response: { 201: PolicyView, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      const policy = await policies.createPolicy(db, request.actor, request.body);
      return reply.status(201).send({
        ...presentPolicy(policy, request.body.ph_erp_id),
        code: 201,
        message: "Policy created successfully",
      });
    },
  );

  app.patch(
    "/policy/policy",
    {
      schema: {
        tags,
        summary: "Update a policy; only the fields sent change",
        querystring: PolicyKeyQuery,
        body: PolicyUpdateBody,
        response: { 200: PolicyView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const policy = await policies.updatePolicy(db, request.actor, request.query, request.body);
      return {
        ...presentPolicy(policy, request.query.ph_erp_id),
        code: 200,
        message: "Policy updated successfully",
      };
    },
  );

  app.get(
    "/policy/policy",
    {
      schema: {
        tags,
        summary: "Read one policy (beyond the spec)",
        querystring: PolicyKeyQuery,
        response: { 200: PolicyView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const policy = await policies.requirePolicy(db, request.tenant.id, request.query);
      return {
        ...presentPolicy(policy, request.query.ph_erp_id),
        code: 200,
        message: "Policy retrieved successfully",
      };
    },
  );

  app.patch(
    "/policy/patient-policy",
    {
      schema: {
        tags,
        summary: "Update a patient's link to a policy; only the fields sent change",
        querystring: PatientPolicyKeyQuery,
        body: PatientPolicyUpdateBody,
        response: { 200: PatientPolicyView, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request) => {
      const link = await policies.updatePatientPolicy(db, request.actor, request.query, request.body);
      const { member_id, policy_no, ph_erp_id } = request.query;
      return {
        member_id,
        policy_no,
        ph_erp_id,
        category_code: link.category_code,
        network_code: link.network_code,
        start_date: link.start_date,
        end_date: link.end_date,
        status: link.status,
        is_vip: link.is_vip,
        code: 200,
        message: "Patient policy updated successfully",
      };
    },
  );
};
