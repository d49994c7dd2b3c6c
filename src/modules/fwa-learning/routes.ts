import type { AreaPlugin } from "../../platform/http/plugin.js";
import { bearerServiceErrors as errors } from "../../platform/http/schemas.js";
import { Model, OutcomesAccepted, OutcomesBody } from "./schemas.js";
import { forgetModel, modelOf, receiveOutcomes } from "./service.js";

const tags = ["FWA learning"];

/** learning from outcomes under {claims_base_url} = /v1, behind bearer tokens (beyond the spec) */
export const fwaLearningRoutes: AreaPlugin = async (app, { db, jobs }) => {
  app.post(
    "/fwa/outcomes",
    {
      schema: {
        tags,
        summary: "Confirmed or cleared providers of an analysed batch: the tenant's model learns from them",
        body: OutcomesBody,
        response: { 200: OutcomesAccepted, ...errors([400, 401, 404]) },
      },
    },
    async (request) => receiveOutcomes(db, jobs, request.actor, request.body),
  );
  app.get(
    "/fwa/model",
    {
      schema: {
        tags,
        summary: "The tenant's FWA model: its state, size, validation and weights",
        response: { 200: Model, ...errors([401]) },
      },
    },
    async (request) => modelOf(db, request.actor.tenantId),
  );
  app.delete(
    "/fwa/model",
    {
      schema: {
        tags,
        summary: "Forget the tenant's model and every outcome it learned from",
        response: { 200: Model, ...errors([401]) },
      },
    },
    async (request) => forgetModel(db, request.actor),
  );
};
