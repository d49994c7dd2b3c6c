import Type from "typebox";
import { requestContextOf } from "../../platform/context.js";
import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { communicationRoutes } from "./communications/routes.js";
import { informationRequestRoutes } from "./information-requests/routes.js";
import {
  BundleSyncBody,
  CreateBody,
  Created,
  Message,
  ReopenBody,
  TransactionParams,
  UpdateBody,
} from "./schemas.js";
import { createPriorAuth } from "./service.js";
import { supportingInfoRoutes } from "./supporting-info/routes.js";
import { getPriorAuth } from "./view.js";
import { cancelPriorAuth, reopenPriorAuth, syncBundle, updatePriorAuth } from "./workflow.js";

const tags = ["Prior authorization"];
const done = (message: string) => ({ code: 200, message });

/** prior authorization: the requests, then their supporting info, communications and information requests */
export const priorAuthRoutes: AreaPlugin = async (app, deps) => {
  const { db, jobs } = deps;
  app.post(
    "/approval-request/create",
    {
      schema: {
        tags,
        summary:
          "Submit a request: the engine decides every item (the tenant's mode: standard or lightweight)",
        body: CreateBody,
        response: { 201: Created, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      const created = await createPriorAuth(requestContextOf(request, { db, jobs }), request.body);
      return reply.status(201).send(created);
    },
  );

  app.patch(
    "/approval-request/update/:transaction_id",
    {
      schema: {
        tags,
        summary: "The reviewer's decision (transition matrix in the README)",
        params: TransactionParams,
        body: UpdateBody,
        response: { 200: Message, ...errorResponses([400, 401, 404, 422]) },
      },
    },
    async (request) => {
      await updatePriorAuth(db, jobs, request.actor, request.params.transaction_id, request.body);
      return done("Prior authorization updated successfully");
    },
  );

  app.get(
    "/approval-request/get-one/:transaction_id",
    {
      schema: {
        tags,
        summary: "The whole request: submitted fields, status, items with decisions and reasons, history",
        params: TransactionParams,
        // the view as built (view.ts: the spec's fields, items, history, communications, communication_requests)
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses([401, 404]) },
      },
    },
    async (request) => getPriorAuth(db, request.tenant.id, request.params.transaction_id),
  );

  app.patch(
    "/approval-request/bundle/sync/:transaction_id",
    {
      schema: {
        tags,
        summary: "Record the NPHIES response bundle (the status does not change)",
        params: TransactionParams,
        body: BundleSyncBody,
        response: { 200: Message, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      await syncBundle(db, jobs, request.actor, request.params.transaction_id, request.body);
      return done("Bundle synchronized successfully");
    },
  );

  app.patch(
    "/approval-request/reopen/:transaction_id",
    {
      schema: {
        tags,
        summary: "Reopen a processed request: back to PENDING, adjudicated again",
        params: TransactionParams,
        body: ReopenBody,
        response: { 200: Message, ...errorResponses([400, 401, 404, 422]) },
      },
    },
    async (request) => {
      await reopenPriorAuth(db, jobs, request.actor, request.params.transaction_id, request.body);
      return done("Prior authorization reopened successfully");
    },
  );

  app.patch(
    "/approval-request/cancel/:transaction_id",
    {
      schema: {
        tags,
        summary: "Cancel a request: final",
        params: TransactionParams,
        response: { 200: Message, ...errorResponses([401, 404, 409]) },
      },
    },
    async (request) => {
      await cancelPriorAuth(db, jobs, request.actor, request.params.transaction_id);
      return done("Prior authorization cancelled successfully");
    },
  );

  await app.register(supportingInfoRoutes, deps);
  await app.register(communicationRoutes, deps);
  await app.register(informationRequestRoutes, deps);
};
