import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import {
  DeliveryPage,
  DeliveryQuery,
  TestEventAccepted,
  Webhook,
  WebhookCreateBody,
  WebhookIdParams,
  WebhookList,
} from "./schemas.js";
import * as webhooks from "./service.js";

const tags = ["Webhook"];

export const webhookRoutes: AreaPlugin = async (app, { db, jobs, config }) => {
  app.post(
    "/webhook/create",
    {
      schema: {
        tags,
        summary: "Register a webhook",
        body: WebhookCreateBody,
        response: { 201: Webhook, ...errorResponses([400, 401]) },
      },
    },
    async (request, reply) => {
      const webhook = await webhooks.createWebhook(db, config.webhooks, request.actor, request.body);
      return reply.status(201).send(webhooks.presentWebhook(webhook));
    },
  );

  app.get(
    "/webhook/list",
    {
      schema: {
        tags,
        summary: "List the tenant's webhooks, removed ones included (is_active false)",
        response: { 200: WebhookList, ...errorResponses([401]) },
      },
    },
    async (request) => ({
      data: (await webhooks.listWebhooks(db, request.tenant.id)).map(webhooks.presentWebhook),
    }),
  );

  app.delete(
    "/webhook/remove/:id",
    {
      schema: {
        tags,
        summary: "Remove a webhook: it becomes inactive and receives nothing more",
        params: WebhookIdParams,
        response: { 200: Webhook, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) =>
      webhooks.presentWebhook(await webhooks.removeWebhook(db, request.actor, request.params.id)),
  );

  app.get(
    "/webhook/:id/deliveries",
    {
      schema: {
        tags,
        summary: "A webhook's deliveries, newest first, with every attempt (beyond the spec)",
        params: WebhookIdParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveryPage, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const page = await webhooks.findDeliveries(db, request.tenant.id, request.params.id, request.query);
      return {
        total_count: page.total,
        data: page.rows.map((delivery) => ({
          delivery_id: delivery.id,
          event_id: delivery.event_id,
          event_type: delivery.event_type,
          status: delivery.status,
          created_at: delivery.created_at.toISOString(),
          completed_at: delivery.completed_at?.toISOString() ?? null,
          next_attempt_at: delivery.status === "pending" ? delivery.next_attempt_at.toISOString() : null,
          attempt_count: delivery.attempts,
          attempts: delivery.attempt_list.map((attempt) => ({
            attempt: attempt.attempt,
            attempted_at: attempt.attempted_at.toISOString(),
            status_code: attempt.status_code,
            latency_ms: attempt.latency_ms,
            error: attempt.error,
            next_attempt_at: attempt.next_attempt_at?.toISOString() ?? null,
          })),
        })),
      };
    },
  );

  app.post(
    "/webhook/:id/test",
    {
      schema: {
        tags,
        summary: "Send a signed PING event to this webhook (beyond the spec)",
        params: WebhookIdParams,
        response: { 202: TestEventAccepted, ...errorResponses([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      const sent = await webhooks.sendTestEvent(db, jobs, request.actor, request.params.id);
      return reply.status(202).send({
        event_id: sent.eventId,
        delivery_id: sent.deliveryId,
        message: "Test event queued for delivery; see GET /webhook/:id/deliveries",
      });
    },
  );
};
