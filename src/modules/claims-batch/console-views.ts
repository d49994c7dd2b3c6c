/** What the reviewer console shows of a batch beyond the API's pages, read from the stored results only. */
import type { ClaimResult } from "../../engine/fwa/results.js";
import type { Db } from "../../platform/db/db.js";
import { rankingPage } from "./rankings.js";
import { type BatchRow, batchRepo, RESULT_PAGE_CLAIMS } from "./repo.js";
import { entriesOfPages, requireResults } from "./results.js";
import type { RankedProviderView } from "./schemas.js";

/** the histogram's bins: bin n holds the scores from n/10 to (n+1)/10, the last one 1 too */
export const SCORE_BINS = 10;

/** a batch's results never change once stored, so its bins are computed once per node (a few kept) */
const binsKept = new Map<string, number[]>();
const BINS_KEPT = 64;

const binOf = (score: number) => Math.min(SCORE_BINS - 1, Math.floor(Math.round(score * 10_000) / 1_000));

/** how many of the batch's items fall in each tenth of ai_score, read a stored page at a time */
export async function scoreHistogram(db: Db, batch: BatchRow, now: Date = new Date()): Promise<number[]> {
  requireResults(batch, now);
  const key = `${batch.id}:${batch.results_attempt}`;
  const kept = binsKept.get(key);
  if (kept !== undefined) return kept;
  const bins = new Array<number>(SCORE_BINS).fill(0);
  const total = batch.summary ? batch.summary.approved + batch.summary.flagged + batch.summary.rejected : 0;
  for (let page = 1; page <= Math.ceil(total / RESULT_PAGE_CLAIMS); page++) {
    const claims = await entriesOfPages<ClaimResult>(await batchRepo.readPages(db, batch, "all", page, page));
    for (const claim of claims)
      for (const item of claim.claim_items) {
        const bin = binOf(item.ai_score);
        bins[bin] = (bins[bin] ?? 0) + 1;
      }
  }
  if (binsKept.size >= BINS_KEPT) binsKept.delete(binsKept.keys().next().value as string);
  binsKept.set(key, bins);
  return bins;
}

/** a provider of the batch as ranked, with its rank (1 = audit first), or undefined when not in the batch */
export async function rankedProvider(
  db: Db,
  batch: BatchRow,
  providerId: string,
  now: Date = new Date(),
): Promise<{ rank: number; provider: RankedProviderView } | undefined> {
  const perPage = RESULT_PAGE_CLAIMS;
  for (let page = 1; ; page++) {
    const ranking = await rankingPage(db, batch, "providers", { page, perPage }, now);
    const providers = ranking.providers as RankedProviderView[];
    const index = providers.findIndex((provider) => provider.provider_id === providerId);
    if (index >= 0)
      return { rank: (page - 1) * perPage + index + 1, provider: providers[index] as RankedProviderView };
    if (page >= ranking.meta.total_pages) return undefined;
  }
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
  for (const view of ["flagged", "rejected"] as const) {
    const count = batch.summary?.[view] ?? 0;
    for (let page = 1; page <= Math.ceil(count / RESULT_PAGE_CLAIMS); page++) {
      const claims = await entriesOfPages<ClaimResult>(
        await batchRepo.readPages(db, batch, view, page, page),
      );
      found.push(...claims.filter((claim) => claim.provider_id === providerId));
    }
  }
  return found;
}
