import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AreaPlugin } from "../../platform/http/plugin.js";
import {
  BatchErrorBody,
  BearerErrorBody,
  bearerServiceErrors as errors,
} from "../../platform/http/schemas.js";
import {
  Accepted,
  BatchParams,
  BatchStatusView,
  MemberRanking,
  ProviderRanking,
  RankingQuery,
  Results,
  ResultsQuery,
  SubscribeBody,
  Subscription,
  SubscriptionList,
  SubscriptionParams,
} from "./schemas.js";
import {
  batchStatusView,
  listSubscriptions,
  presentSubscription,
  rankingCsv,
  rankingPage,
  requireBatch,
  resultsCsv,
  resultsPage,
  submitBatch,
  subscribe,
  unsubscribe,
} from "./service.js";

const tags = ["Claims batch"];

/** a whole view of a batch as a CSV download */
function sendCsv(reply: FastifyReply, filename: string, csv: Readable) {
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}.csv"`)
    .send(csv);
}

/** gzip when the body says so: Content-Encoding gzip, or a gzip Content-Type */
function isGzip(request: FastifyRequest): boolean {
  const encoding = String(request.headers["content-encoding"] ?? "").toLowerCase();
  const type = String(request.headers["content-type"] ?? "").toLowerCase();
  return encoding.includes("gzip") || /^application\/(x-)?gzip\b/.test(type);
}

/** the body as its parser passed it on: the request's stream, or an empty upload when none was sent */
const uploadOf = (body: unknown): Readable => (body instanceof Readable ? body : Readable.from([]));

/** the upload reads its body as a stream: never whole in memory, never one string */
const uploadRoute: AreaPlugin = async (app, { db, jobs, config }) => {
  // only the types below reach the handler, as a stream; any other is 415
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ["application/json", "application/gzip", "application/x-gzip", "application/octet-stream"],
    (_request, payload, done) => done(null, payload),
  );
  app.post(
    "/claims/batch/upload",
    {
      schema: {
        tags,
        summary:
          "Upload a batch of claims (JSON, or gzip: Content-Encoding gzip or Content-Type application/gzip)",
        consumes: ["application/json", "application/gzip"],
        response: {
          202: Accepted,
          400: BatchErrorBody,
          401: BearerErrorBody,
          409: BatchErrorBody,
          413: BatchErrorBody,
          415: BatchErrorBody,
        },
      },
    },
    async (request, reply) => {
      const outcome = await submitBatch(db, jobs, config.batches, request.actor, {
        body: uploadOf(request.body),
        gzip: isGzip(request),
      });
      if (!outcome.accepted) return reply.status(400).send(outcome.body);
      return reply.status(202).send(outcome.body);
    },
  );
};

/** the batch claims service under {claims_base_url} = /v1, behind bearer tokens */
export const claimsBatchRoutes: AreaPlugin = async (app, deps) => {
  const { db, config } = deps;
  await app.register(uploadRoute, deps);

  app.get(
    "/claims/batch/:batch_id",
    {
      schema: {
        tags,
        summary: "A batch's status and progress (beyond the spec)",
        params: BatchParams,
        response: { 200: BatchStatusView, ...errors([401, 404]) },
      },
    },
    async (request) => {
      const batch = await requireBatch(db, request.actor.tenantId, request.params.batch_id);
      return batchStatusView(batch);
    },
  );

  app.get(
    "/claims/batch/:batch_id/results",
    {
      schema: {
        tags,
        summary: "A batch's results: JSON by page, or the whole (filtered) batch as CSV",
        params: BatchParams,
        querystring: ResultsQuery,
        response: { 200: Results, ...errors([400, 401, 404, 409]) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const batch = await requireBatch(db, request.actor.tenantId, request.params.batch_id);
      const filter = query.filter ?? "all";
      if (query.format === "csv")
        return sendCsv(
          reply,
          `${batch.id}${filter === "all" ? "" : `-${filter}`}`,
          resultsCsv(db, batch, filter),
        );
      return resultsPage(db, batch, { page: query.page, perPage: query.per_page, filter });
    },
  );

  for (const [view, body, entity] of [
    ["providers", ProviderRanking, "provider"],
    ["members", MemberRanking, "member"],
  ] as const)
    app.get(
      `/claims/batch/:batch_id/${view}`,
      {
        schema: {
          tags,
          summary: `Every ${entity} of a batch ranked for audit by risk_score, by page or as CSV (beyond the spec)`,
          params: BatchParams,
          querystring: RankingQuery,
          response: { 200: body, ...errors([400, 401, 404, 409]) },
        },
      },
      async (request, reply) => {
        const query = request.query;
        const batch = await requireBatch(db, request.actor.tenantId, request.params.batch_id);
        if (query.format === "csv") return sendCsv(reply, `${batch.id}-${view}`, rankingCsv(db, batch, view));
        return rankingPage(db, batch, view, { page: query.page, perPage: query.per_page });
      },
    );

  app.post(
    "/webhooks/subscribe",
    {
      schema: {
        tags,
        summary: "Subscribe to batch events (before submitting batches)",
        body: SubscribeBody,
        response: { 201: Subscription, ...errors([400, 401]) },
      },
    },
    async (request, reply) => {
      const row = await subscribe(db, config.webhooks, request.actor, request.body);
      return reply.status(201).send(presentSubscription(row));
    },
  );

  app.get(
    "/webhooks/subscriptions",
    {
      schema: {
        tags,
        summary: "The tenant's claims subscriptions (beyond the spec)",
        response: { 200: SubscriptionList, ...errors([401]) },
      },
    },
    async (request) => ({
      data: await listSubscriptions(db, request.actor.tenantId),
    }),
  );

  app.delete(
    "/webhooks/subscriptions/:subscription_id",
    {
      schema: {
        tags,
        summary: "Remove a claims subscription: it receives nothing more (beyond the spec)",
        params: SubscriptionParams,
        response: { 200: Subscription, ...errors([401, 404]) },
      },
    },
    async (request) =>
      presentSubscription(await unsubscribe(db, request.actor, request.params.subscription_id)),
  );
};
