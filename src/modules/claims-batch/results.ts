import { Readable } from "node:stream";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { ClaimResult } from "../../engine/fwa/results.js";
import { TtlCache } from "../../platform/cache.js";
import type { Db } from "../../platform/db/db.js";
import { csvLine } from "../../platform/http/csv.js";
import { AppError } from "../../platform/http/errors.js";
import { type BatchRow, batchRepo, RESULT_PAGE_CLAIMS, type ResultView } from "./repo.js";

const gunzipAsync = promisify(gunzip);

const EMPTY_SUMMARY = { approved: 0, flagged: 0, rejected: 0, FWA_cases: 0 };

/** whether a batch's results can be read now: pending until it completed or failed, purged once their time is up */
export type ResultsAvailability = "available" | "pending" | "purged";

/** the one rule of which batches have results (the spec's results are of a completed or failed batch) */
export function resultsAvailability(
  batch: Pick<BatchRow, "status" | "results_available_until">,
  now: Date,
): ResultsAvailability {
  if (batch.status !== "completed" && batch.status !== "failed") return "pending";
  if (batch.results_available_until !== null && batch.results_available_until < now) return "purged";
  return "available";
}

/** the batch's results are readable now, or the API's 409 (not ready) or 404 (purged) */
export function requireResults(batch: BatchRow, now: Date): void {
  const availability = resultsAvailability(batch, now);
  if (availability === "pending")
    throw new AppError(
      "BATCH_RESULTS_NOT_READY",
      `Batch ${batch.id} is ${batch.status}: its results are not ready yet`,
    );
  if (availability === "purged")
    throw new AppError(
      "BATCH_NOT_FOUND",
      `The results of batch ${batch.id} were available until ${batch.results_available_until?.toISOString()}`,
    );
}

/** how many claims a filter selects */
function totalOf(batch: BatchRow, filter: ResultView): number {
  if (batch.summary === null) return 0;
  return filter === "all"
    ? batch.summary.approved + batch.summary.flagged + batch.summary.rejected
    : batch.summary[filter];
}

/** the entries of stored pages, in order */
export async function entriesOfPages<T>(rows: { data: Buffer | Uint8Array }[]): Promise<T[]> {
  const pages = await Promise.all(
    rows.map(async (row) => JSON.parse((await gunzipAsync(row.data)).toString("utf8"))),
  );
  return (pages as T[][]).flat();
}

type PageView = Parameters<typeof batchRepo.readPages>[2];

/** the `entries` entries of a stored view, one stored page (RESULT_PAGE_CLAIMS of them) at a time, in order */
export async function* storedPages<T>(
  db: Db,
  batch: BatchRow,
  view: PageView,
  entries: number,
): AsyncGenerator<T[]> {
  for (let page = 1; page <= Math.ceil(entries / RESULT_PAGE_CLAIMS); page++)
    yield await entriesOfPages<T>(await batchRepo.readPages(db, batch, view, page, page));
}

/** entries `start` to `end` (exclusive) of a view stored RESULT_PAGE_CLAIMS to a page: one or two rows read */
export async function entriesBetween<T>(
  db: Db,
  batch: BatchRow,
  view: PageView,
  start: number,
  end: number,
): Promise<T[]> {
  if (start >= end) return [];
  const firstPage = Math.floor(start / RESULT_PAGE_CLAIMS) + 1;
  const lastPage = Math.floor((end - 1) / RESULT_PAGE_CLAIMS) + 1;
  const rows = await batchRepo.readPages(db, batch, view, firstPage, lastPage);
  const offset = start - (firstPage - 1) * RESULT_PAGE_CLAIMS;
  return (await entriesOfPages<T>(rows)).slice(offset, offset + (end - start));
}

/** the `meta` of a page of `total` entries */
export const pageMeta = (page: number, perPage: number, total: number) => ({
  page,
  per_page: perPage,
  total_pages: Math.ceil(total / perPage),
  total_results: total,
});

/** one page of a batch's results as JSON (the spec's shape, docs/operator-contract.md section 8) */
export async function resultsPage(
  db: Db,
  batch: BatchRow,
  query: { page: number; perPage: number; filter: ResultView },
  now: Date = new Date(),
) {
  requireResults(batch, now);
  const total = totalOf(batch, query.filter);
  const start = (query.page - 1) * query.perPage;
  const end = Math.min(total, start + query.perPage);
  const claims = await entriesBetween<ClaimResult>(db, batch, query.filter, start, end);
  return {
    batch_id: batch.id,
    batch_reference_id: batch.batch_reference_id,
    status: batch.status,
    processed_at: batch.processed_at?.toISOString() ?? null,
    total_claims: batch.total_claims,
    processed_claims: batch.processed_claims,
    failed_claims: batch.failed_claims,
    summary: batch.summary ?? EMPTY_SUMMARY,
    claims,
    meta: pageMeta(query.page, query.perPage, total),
  };
}

/** the CSV header line (no line terminator), docs/operator-contract.md section 8 */
export const CSV_HEADER =
  "batch_id,claim_id,claim_status,erp_claim_item_id,item_status,ai_score,reason_codes,reason_descriptions";

/**
 * One CSV line per item of the claim, in CSV_HEADER's columns; reason codes and descriptions joined by `|`.
 * Every cell goes through csvCell (ids and reasons are the tenant's text: a formula must not run); lines
 * carry no terminator.
 */
export function csvRowsOf(result: ClaimResult, batchId: string): string[] {
  return result.claim_items.map((item) =>
    csvLine([
      batchId,
      result.claim_id,
      result.status,
      item.erp_claim_item_id,
      item.status,
      item.ai_score,
      item.reasons.map((reason) => reason.code).join("|"),
      item.reasons.map((reason) => reason.description).join("|"),
    ]),
  );
}

/** the whole (filtered) batch as CSV, streamed page by page: one row per claim item, header first */
export function resultsCsv(db: Db, batch: BatchRow, filter: ResultView, now: Date = new Date()): Readable {
  requireResults(batch, now);
  const total = totalOf(batch, filter);
  async function* lines() {
    yield `${CSV_HEADER}\r\n`;
    for await (const claims of storedPages<ClaimResult>(db, batch, filter, total)) {
      const rows = claims.flatMap((claim) => csvRowsOf(claim, batch.id));
      if (rows.length > 0) yield `${rows.join("\r\n")}\r\n`;
    }
  }
  return Readable.from(lines());
}

/** the histogram's bins: bin n holds the scores from n/10 to (n+1)/10, the last one 1 too */
const SCORE_BINS = 10;

/** a batch's results never change once stored, so its bins are computed once per node (64 kept) */
const binsKept = new TtlCache<number[]>(Number.POSITIVE_INFINITY, 64);

const binOf = (score: number) => Math.min(SCORE_BINS - 1, Math.floor(Math.round(score * 10_000) / 1_000));

/** how many of the batch's items fall in each tenth of ai_score, read a stored page at a time */
export async function scoreHistogram(db: Db, batch: BatchRow, now: Date = new Date()): Promise<number[]> {
  requireResults(batch, now);
  const key = `${batch.id}:${batch.results_attempt}`;
  const kept = binsKept.get(key);
  if (kept !== undefined) return kept;
  const bins = new Array<number>(SCORE_BINS).fill(0);
  for await (const claims of storedPages<ClaimResult>(db, batch, "all", totalOf(batch, "all")))
    for (const claim of claims)
      for (const item of claim.claim_items) {
        const bin = binOf(item.ai_score);
        bins[bin] = (bins[bin] ?? 0) + 1;
      }
  binsKept.set(key, bins);
  return bins;
}

/** the provider's flagged and rejected claims in the batch (the stored views of each status, read in turn) */
export async function flaggedClaimsOfProvider(
  db: Db,
  batch: BatchRow,
  providerId: string,
  now: Date = new Date(),
): Promise<ClaimResult[]> {
  requireResults(batch, now);
  const found: ClaimResult[] = [];
  for (const view of ["flagged", "rejected"] as const)
    for await (const claims of storedPages<ClaimResult>(db, batch, view, totalOf(batch, view)))
      found.push(...claims.filter((claim) => claim.provider_id === providerId));
  return found;
}
