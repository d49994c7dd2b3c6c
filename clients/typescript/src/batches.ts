import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "openapi-fetch";
import { MizanApiError } from "./errors.js";
import type {
  BatchAccepted,
  BatchPaths,
  BatchResultClaim,
  BatchStatus,
  MemberRanking,
  ProviderRanking,
  ResultsFilter,
} from "./paths.js";
import type { Send } from "./retry.js";
import { unwrap } from "./unwrap.js";
import { type BatchSource, type UploadBodyOptions, uploadBody } from "./upload-body.js";

export interface UploadOptions extends UploadBodyOptions {
  /** sent as X-Request-ID (a random UUID otherwise); the service carries it into the analysis and its events */
  requestId?: string;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** each status seen, the first at once */
  onProgress?(status: BatchStatus): void;
  /** between two looks at the batch (default 1000) */
  intervalMs?: number;
  signal?: AbortSignal;
}

export interface PageOptions {
  /** claims (or entities) asked for per request, at most 1000 (the default) */
  perPage?: number;
}

export interface BatchOperations {
  /** uploads a batch, streamed; answers the 202 body, or throws MizanApiError (400 with the problems, 409, 413, ...) */
  uploadBatch(source: BatchSource, options?: UploadOptions): Promise<BatchAccepted>;
  /** looks at the batch every `intervalMs` until it is completed or failed, and answers that status */
  waitForBatch(batchId: string, options?: WaitOptions): Promise<BatchStatus>;
  /** every claim of a finished batch, page after page (409 RESULTS_NOT_READY while it runs) */
  results(
    batchId: string,
    options?: PageOptions & { filter?: ResultsFilter },
  ): AsyncGenerator<BatchResultClaim>;
  /** every provider of a finished batch, riskiest first */
  providers(batchId: string, options?: PageOptions): AsyncGenerator<ProviderRanking>;
  /** every member of a finished batch, riskiest first */
  members(batchId: string, options?: PageOptions): AsyncGenerator<MemberRanking>;
}

/** pages until the last, as `meta.total_pages` says (0 for a batch without claims) */
async function* paged<Page extends { meta: { total_pages: number } }, Row>(
  fetchPage: (page: number) => Promise<Page>,
  rows: (page: Page) => Row[],
): AsyncGenerator<Row> {
  for (let page = 1; ; page++) {
    const body = await fetchPage(page);
    yield* rows(body);
    if (page >= body.meta.total_pages) return;
  }
}

export function batchOperations(baseUrl: string, batch: Client<BatchPaths>, send: Send): BatchOperations {
  const DEFAULT_PER_PAGE = 1000;
  return {
    async uploadBatch(source, options = {}) {
      const body = await uploadBody(source, options);
      const requestId = options.requestId ?? randomUUID();
      const response = await send(
        () =>
          new Request(`${baseUrl}/v1/claims/batch/upload`, {
            method: "POST",
            headers: { ...body.headers, "x-request-id": requestId },
            body: body.open(),
            signal: options.signal ?? null,
            // a stream body needs half duplex in Node's fetch
            ...{ duplex: "half" },
          }),
        { idempotent: false, replayable: body.replayable },
      );
      const answer: unknown = await response.json().catch(() => undefined);
      if (response.status !== 202)
        throw new MizanApiError(response.status, answer, response.headers.get("x-request-id") ?? requestId);
      return answer as BatchAccepted;
    },

    async waitForBatch(batchId, options = {}) {
      for (;;) {
        const status = await unwrap(
          batch.GET("/v1/claims/batch/{batch_id}", {
            params: { path: { batch_id: batchId } },
            signal: options.signal ?? null,
          }),
        );
        options.onProgress?.(status);
        if (status.status === "completed" || status.status === "failed") return status;
        await sleep(options.intervalMs ?? 1000, undefined, { signal: options.signal });
      }
    },

    results(batchId, { filter = "all", perPage = DEFAULT_PER_PAGE } = {}) {
      return paged(
        (page) =>
          unwrap(
            batch.GET("/v1/claims/batch/{batch_id}/results", {
              params: { path: { batch_id: batchId }, query: { page, per_page: perPage, filter } },
            }),
          ),
        (page) => page.claims,
      );
    },

    providers(batchId, { perPage = DEFAULT_PER_PAGE } = {}) {
      return paged(
        (page) =>
          unwrap(
            batch.GET("/v1/claims/batch/{batch_id}/providers", {
              params: { path: { batch_id: batchId }, query: { page, per_page: perPage } },
            }),
          ),
        (page) => page.providers,
      );
    },

    members(batchId, { perPage = DEFAULT_PER_PAGE } = {}) {
      return paged(
        (page) =>
          unwrap(
            batch.GET("/v1/claims/batch/{batch_id}/members", {
              params: { path: { batch_id: batchId }, query: { page, per_page: perPage } },
            }),
          ),
        (page) => page.members,
      );
    },
  };
}
