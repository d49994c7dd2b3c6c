import Type from "typebox";
import { AppError } from "../../platform/http/errors.js";
import type { AreaPlugin } from "../../platform/http/plugin.js";
import { TenantParam } from "../../platform/http/tenant-auth.js";
import {
  type BatchRow,
  flaggedClaimsOfProvider,
  listBatches,
  providerRankingPage,
  type ResultsAvailability,
  rankedProvider,
  requireBatch,
  resultsAvailability,
  resultsCsv,
  resultsPage,
  scoreHistogram,
} from "../claims-batch/service.js";
import { reviewerOf } from "./access.js";
import { sendPage } from "./layout.js";
import { type BatchView, batchListPage, batchPage, claimsPage, providerPage } from "./pages/batches.js";
import { signInPage } from "./pages/sign-in.js";

const BatchParams = Type.Object({
  tenant: TenantParam,
  batch_id: Type.String({ minLength: 1, maxLength: 64 }),
});
const ProviderParams = Type.Object({
  tenant: TenantParam,
  batch_id: Type.String({ minLength: 1, maxLength: 64 }),
  provider_id: Type.String({ minLength: 1, maxLength: 255 }),
});
const PageQuery = Type.Object({ page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }) });
const ClaimsQuery = Type.Object({
  status: Type.Union([Type.Literal("flagged"), Type.Literal("rejected")], { default: "flagged" }),
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
});
const NoQuery = Type.Object({});
const hidden = { hide: true };

const BATCHES_PER_PAGE = 50;
const PROVIDERS_PER_PAGE = 50;
const CLAIMS_PER_PAGE = 50;

/** why a batch shows no results: not ready yet, or purged (the API's own rule says which) */
function noticeOf(batch: BatchRow, availability: Exclude<ResultsAvailability, "available">): string {
  if (availability === "pending")
    return `The batch is ${batch.status} (${batch.progress} %): the charts show once its analysis completes.`;
  return `The results were kept until ${batch.results_available_until?.toISOString()} and have been purged.`;
}

/** the console's claims-batch pages: every read through the claims-batch module, the tenant's batches only */
export const consoleBatchRoutes: AreaPlugin = async (app, { db }) => {
  app.get(
    "/batches",
    { schema: { ...hidden, params: Type.Object({ tenant: TenantParam }), querystring: PageQuery } },
    async (request, reply) => {
      const found = await reviewerOf(db, request);
      if (found === undefined) return sendPage(reply, 200, signInPage(request.params.tenant));
      const { tenant, context } = found;
      const { page } = request.query;
      // one more than shown says whether an older page exists
      const rows = await listBatches(db, tenant.id, {
        limit: BATCHES_PER_PAGE + 1,
        offset: (page - 1) * BATCHES_PER_PAGE,
      });
      const more = rows.length > BATCHES_PER_PAGE;
      return sendPage(reply, 200, batchListPage(context, rows.slice(0, BATCHES_PER_PAGE), { page, more }));
    },
  );

  app.get(
    "/batches/:batch_id",
    { schema: { ...hidden, params: BatchParams, querystring: PageQuery } },
    async (request, reply) => {
      const found = await reviewerOf(db, request);
      if (found === undefined) return sendPage(reply, 200, signInPage(request.params.tenant));
      const { tenant, context } = found;
      const batch = await requireBatch(db, tenant.id, request.params.batch_id);
      const now = new Date();
      const availability = resultsAvailability(batch, now);
      if (availability !== "available")
        return sendPage(reply, 200, batchPage(context, batch, { notice: noticeOf(batch, availability) }));
      const { page } = request.query;
      const ranking = await providerRankingPage(db, batch, { page, perPage: PROVIDERS_PER_PAGE }, now);
      const view: BatchView = {
        histogram: await scoreHistogram(db, batch, now),
        ranking: {
          providers: ranking.providers,
          first: (page - 1) * PROVIDERS_PER_PAGE + 1,
          page,
          pages: ranking.meta.total_pages,
        },
      };
      return sendPage(reply, 200, batchPage(context, batch, view));
    },
  );

  app.get(
    "/batches/:batch_id/providers/:provider_id",
    { schema: { ...hidden, params: ProviderParams, querystring: NoQuery } },
    async (request, reply) => {
      const found = await reviewerOf(db, request);
      if (found === undefined) return sendPage(reply, 200, signInPage(request.params.tenant));
      const { tenant, context } = found;
      const batch = await requireBatch(db, tenant.id, request.params.batch_id);
      const ranked = await rankedProvider(db, batch, request.params.provider_id);
      if (ranked === undefined)
        throw new AppError(
          "E_ROUTE_NOT_FOUND_404",
          `Provider ${request.params.provider_id} is not in this batch`,
        );
      const claims = await flaggedClaimsOfProvider(db, batch, request.params.provider_id);
      return sendPage(reply, 200, providerPage(context, batch, ranked, claims));
    },
  );

  app.get(
    "/batches/:batch_id/claims",
    { schema: { ...hidden, params: BatchParams, querystring: ClaimsQuery } },
    async (request, reply) => {
      const found = await reviewerOf(db, request);
      if (found === undefined) return sendPage(reply, 200, signInPage(request.params.tenant));
      const { tenant, context } = found;
      const batch = await requireBatch(db, tenant.id, request.params.batch_id);
      const { status, page } = request.query;
      const results = await resultsPage(db, batch, { page, perPage: CLAIMS_PER_PAGE, filter: status });
      return sendPage(
        reply,
        200,
        claimsPage(context, batch, status, {
          claims: results.claims,
          page,
          pages: results.meta.total_pages,
          total: results.meta.total_results,
        }),
      );
    },
  );

  app.get(
    "/batches/:batch_id/results.csv",
    { schema: { ...hidden, params: BatchParams, querystring: NoQuery } },
    async (request, reply) => {
      const found = await reviewerOf(db, request);
      if (found === undefined) return sendPage(reply, 200, signInPage(request.params.tenant));
      const { tenant } = found;
      const batch = await requireBatch(db, tenant.id, request.params.batch_id);
      // the API's download (format=csv) exactly: the same rows from the same stored pages
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${batch.id}.csv"`)
        .send(resultsCsv(db, batch, "all"));
    },
  );
};
