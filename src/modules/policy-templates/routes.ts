import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { PatientPolicyKeyQuery } from "../policies/schemas.js";
import { getConsumption } from "./consumption.js";
import {
  BenefitCreateBody,
  BenefitUpdateBody,
  BenefitView,
  CategoryBody,
  CategoryView,
  ConsumptionView,
  Created,
  SubBenefitCreateBody,
  TemplateQuery,
  TemplateView,
} from "./schemas.js";
import * as templates from "./service.js";

const tags = ["Policy template"];
const createErrors = errorResponses([400, 401, 404, 409]);

export const policyTemplateRoutes: AreaPlugin = async (app, { db }) => {
  app.post(
    "/policy/template/category",
    {
      schema: {
        tags,
        summary: "Add a category to a policy's template",
        body: CategoryBody,
        response: { 201: Created, ...createErrors },
      },
    },
    async (request, reply) => {
      await templates.addCategory(db, request.actor, request.body);
      return reply.status(201).send({ code: 201, message: "Category added successfully" });
    },
  );

  app.patch(
    "/policy/template/category",
    {
      schema: {
        tags,
        summary: "Change a category's eligible amount",
        body: CategoryBody,
        response: { 200: CategoryView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const category = await templates.updateCategory(db, request.actor, request.body);
      const { ph_erp_id, policy_no } = request.body;
      return { ph_erp_id, policy_no, ...category, code: 200, message: "Category updated successfully" };
    },
  );

  app.post(
    "/policy/template/benefit",
    {
      schema: {
        tags,
        summary: "Add a benefit (with its sub-benefits) to a category",
        body: BenefitCreateBody,
        response: { 201: Created, ...createErrors },
      },
    },
    async (request, reply) => {
      await templates.addBenefit(db, request.actor, request.body);
      return reply.status(201).send({ code: 201, message: "Benefit added successfully" });
    },
  );

  app.patch(
    "/policy/template/benefit",
    {
      schema: {
        tags,
        summary: "Change a benefit's limit",
        body: BenefitUpdateBody,
        response: { 200: BenefitView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const benefit = await templates.updateBenefit(db, request.actor, request.body);
      const { ph_erp_id, policy_no } = request.body;
      return { ph_erp_id, policy_no, ...benefit, code: 200, message: "Benefit updated successfully" };
    },
  );

  app.post(
    "/policy/template/sub-benefit",
    {
      schema: {
        tags,
        summary: "Add a sub-benefit to a benefit",
        body: SubBenefitCreateBody,
        response: { 201: Created, ...createErrors },
      },
    },
    async (request, reply) => {
      await templates.addSubBenefit(db, request.actor, request.body);
      return reply.status(201).send({ code: 201, message: "Sub-benefit added successfully" });
    },
  );

  app.get(
    "/policy/template",
    {
      schema: {
        tags,
        summary: "A policy's whole template (beyond the spec)",
        querystring: TemplateQuery,
        response: { 200: TemplateView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const categories = await templates.getTemplate(db, request.tenant.id, request.query);
      const { ph_erp_id, policy_no } = request.query;
      return { ph_erp_id, policy_no, categories, code: 200, message: "Template retrieved successfully" };
    },
  );

  app.get(
    "/policy/patient/consumption/get",
    {
      schema: {
        tags: ["Policy"],
        summary: "A patient's limits and what prior authorizations have used of them",
        querystring: PatientPolicyKeyQuery,
        response: { 200: ConsumptionView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const consumption = await getConsumption(db, request.tenant.id, request.query);
      return { ...consumption, code: 200, message: "Consumption retrieved successfully" };
    },
  );
};
