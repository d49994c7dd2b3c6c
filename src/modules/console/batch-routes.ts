import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import Type from "typebox";
import { AppError } from "../../platform/http/errors.js";
import type { ModuleDeps } from "../../platform/http/plugin.js";
import { TenantParam } from "../../platform/http/tenant-auth.js";
import { flaggedClaimsOfProvider, rankedProvider, scoreHistogram } from "../claims-batch/console-views.js";
import { rankingPage } from "../claims-batch/rankings.js";
import { type BatchRow, batchRepo } from "../claims-batch/repo.js";
import { resultsCsv, resultsPage } from "../claims-batch/results.js";
import type { RankedProviderView } from "../claims-batch/schemas.js";
import { requireBatch } from "../claims-batch/service.js";
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

/** whether the batch's results can be read now: completed and not yet purged */
const resultsReady = (batch: BatchRow, now: Date) =>
  batch.status === "completed" &&
  (batch.results_available_until === null || batch.results_available_until >= now);

function noticeOf(batch: BatchRow): string {
  if (batch.status === "failed") return "The analysis failed: the batch has no results.";
  if (batch.status !== "completed")
    return `The batch is ${batch.status} (${batch.progress} %): the charts show once its analysis completes.`;
  return `The results were kept until ${batch.results_available_until?.toISOString()} and have been purged.`;
}

/** the console's claims-batch pages: every read through the claims-batch module, the tenant's batches only */
export async function consoleBatchRoutes(instance: FastifyInstance, { db }: ModuleDeps): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    "/batches",
    { schema: { ...hidden, params: Type.Object({ tenant: TenantParam }), querystring: PageQuery } },
    async (request, reply) => {
      const found = await reviewerOf(db, request);
      if (found === undefined) return sendPage(reply, 200, signInPage(request.params.tenant));
      const { tenant, context } = found;
      const { page } = request.query;
      // one more than shown says whether an older page exists
      const rows = await batchRepo.listForTenant(db, tenant.id, {
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
      if (!resultsReady(batch, now))
        return sendPage(reply, 200, batchPage(context, batch, { notice: noticeOf(batch) }));
      const { page } = request.query;
      const ranking = await rankingPage(db, batch, "providers", { page, perPage: PROVIDERS_PER_PAGE }, now);
      const view: BatchView = {
        histogram: await scoreHistogram(db, batch, now),
        ranking: {
          providers: ranking.providers as RankedProviderView[],
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
}
