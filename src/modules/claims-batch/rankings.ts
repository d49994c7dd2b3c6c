import { Readable } from "node:stream";
import { BATCH_PROVIDER_TYPES } from "../../engine/fwa/columns/claim.js";
import type { EntityRanking } from "../../engine/fwa/ranking/entity.js";
import { riyalsOf } from "../../engine/money.js";
import type { Db } from "../../platform/db/db.js";
import { csvCell } from "../../platform/http/csv.js";
import { type BatchRow, batchRepo, type RankingView } from "./repo.js";
import { entriesBetween, pageMeta, requireResults, storedPages } from "./results.js";
import type { RankedMemberView, RankedProviderView } from "./schemas.js";

/** the figures every ranked entity shows, in the API's units */
function figuresOf(row: EntityRanking) {
  return {
    risk_score: row.riskScore,
    claims: row.claims,
    items: row.items,
    claimed_amount: riyalsOf(row.claimedAmount),
    flagged_claims: row.flaggedClaims,
    rejected_claims: row.rejectedClaims,
    flagged_amount: riyalsOf(row.flaggedAmount),
    reasons: row.reasons,
  };
}

const PRESENT = {
  providers: (row: EntityRanking): RankedProviderView => ({
    provider_id: row.id,
    medical_provider_type: BATCH_PROVIDER_TYPES[row.providerType ?? -1] ?? "UNKNOWN",
    ...figuresOf(row),
  }),
  members: (row: EntityRanking): RankedMemberView => ({ member_id: row.id, ...figuresOf(row) }),
};

type PageQuery = { page: number; perPage: number };

/** one page of a ranking's entities, each as `present` shows it */
async function rankedEntries<T>(
  db: Db,
  batch: BatchRow,
  view: RankingView,
  query: PageQuery,
  now: Date,
  present: (row: EntityRanking) => T,
) {
  requireResults(batch, now);
  const total = await batchRepo.countRanked(db, batch, view);
  const start = (query.page - 1) * query.perPage;
  const rows = await entriesBetween<EntityRanking>(
    db,
    batch,
    view,
    start,
    Math.min(total, start + query.perPage),
  );
  return { entries: rows.map(present), meta: pageMeta(query.page, query.perPage, total) };
}

/** one page of a batch's providers by risk */
export async function providerRankingPage(db: Db, batch: BatchRow, query: PageQuery, now: Date = new Date()) {
  const { entries, meta } = await rankedEntries(db, batch, "providers", query, now, PRESENT.providers);
  return { batch_id: batch.id, providers: entries, meta };
}

/** one page of a batch's members by risk */
async function memberRankingPage(db: Db, batch: BatchRow, query: PageQuery, now: Date = new Date()) {
  const { entries, meta } = await rankedEntries(db, batch, "members", query, now, PRESENT.members);
  return { batch_id: batch.id, members: entries, meta };
}

/** one page of a batch's provider or member ranking (docs/operator-contract.md section 9) */
export function rankingPage(
  db: Db,
  batch: BatchRow,
  view: RankingView,
  query: PageQuery,
  now: Date = new Date(),
) {
  return view === "providers"
    ? providerRankingPage(db, batch, query, now)
    : memberRankingPage(db, batch, query, now);
}

/** a provider of the batch as ranked, with its rank (1 = audit first), or undefined when not in the batch */
export async function rankedProvider(
  db: Db,
  batch: BatchRow,
  providerId: string,
  now: Date = new Date(),
): Promise<{ rank: number; provider: RankedProviderView } | undefined> {
  requireResults(batch, now);
  // counted once, then the stored pages in turn (a page query each would count them again)
  const total = await batchRepo.countRanked(db, batch, "providers");
  let before = 0;
  for await (const rows of storedPages<EntityRanking>(db, batch, "providers", total)) {
    const index = rows.findIndex((row) => row.id === providerId);
    const row = rows[index];
    if (row !== undefined) return { rank: before + index + 1, provider: PRESENT.providers(row) };
    before += rows.length;
  }
  return undefined;
}

const CSV_COLUMNS = (view: RankingView) =>
  [
    "batch_id",
    "rank",
    ...(view === "providers" ? ["provider_id", "medical_provider_type"] : ["member_id"]),
    "risk_score",
    "claims",
    "items",
    "claimed_amount",
    "flagged_claims",
    "rejected_claims",
    "flagged_amount",
    "reason_codes",
    "reason_causes",
  ].join(",");

/** the whole ranking as CSV, streamed page by page, in rank order */
export function rankingCsv(db: Db, batch: BatchRow, view: RankingView, now: Date = new Date()): Readable {
  requireResults(batch, now);
  async function* lines() {
    yield `${CSV_COLUMNS(view)}\r\n`;
    const total = await batchRepo.countRanked(db, batch, view);
    let rank = 0;
    for await (const rows of storedPages<EntityRanking>(db, batch, view, total)) {
      const text = rows.map((row) => {
        rank += 1;
        const ids = view === "providers" ? [row.id, PRESENT.providers(row).medical_provider_type] : [row.id];
        const f = figuresOf(row);
        // numbers stay numbers (amounts with two decimals); text cells are neutralised by csvCell
        return [
          csvCell(batch.id),
          csvCell(rank),
          ...ids.map((id) => csvCell(id)),
          csvCell(f.risk_score),
          csvCell(f.claims),
          csvCell(f.items),
          csvCell(f.claimed_amount, 2),
          csvCell(f.flagged_claims),
          csvCell(f.rejected_claims),
          csvCell(f.flagged_amount, 2),
          csvCell(f.reasons.map((r) => r.code).join("|")),
          csvCell(f.reasons.map((r) => r.cause).join("|")),
        ].join(",");
      });
      if (text.length > 0) yield `${text.join("\r\n")}\r\n`;
    }
  }
  return Readable.from(lines());
}
