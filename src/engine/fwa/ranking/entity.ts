/**
 * What the provider and member rankings share (docs/operator-contract.md section 9): an entity's ranked row,
 * its flagged and rejected claims, and the flags term, the share of its claims with findings of their own
 * (flagged or not: a long stay supports, flags nothing alone) beyond the batch's share (shrunk like the exposure terms). Weights: sensitivity.ts
 * (RANKING).
 */
import { PROVIDER_PROFILE_CODE } from "../detectors/provider-profile.js";
import { RANKING } from "../sensitivity.js";
import { claimAmount, type RiskTerm } from "../stats/exposure.js";
import { count, money, percent } from "../stats/format.js";
import { type BatchDecisions, type ColumnarBatchView, statusOf } from "../types.js";

/** one provider or member of the batch, as ranked */
export interface EntityRanking {
  /** the provider_id or member_id as submitted */
  id: string;
  /** the provider's medical_provider_type code of the columns (providers only) */
  providerType?: number;
  /** 0..1, 4 decimals: audit first what scores highest */
  riskScore: number;
  claims: number;
  items: number;
  /** halalas */
  claimedAmount: number;
  flaggedClaims: number;
  rejectedClaims: number;
  /** halalas of the flagged and rejected claims */
  flaggedAmount: number;
  reasons: { code: string; description: string; cause: string }[];
}

/** an entity's flagged and rejected claims */
export interface Flags {
  flagged: number;
  rejected: number;
  amount: number;
  /** claims flagged or rejected by a finding about the claim itself (provider-level findings left out) */
  evidenced: number;
}

/** a score as rankings give it: four decimals */
export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** findings about the provider as a whole: its own terms weigh them, so its flags term leaves them out */
const PROVIDER_LEVEL: ReadonlySet<string> = new Set([PROVIDER_PROFILE_CODE]);
/** a finding this strong is evidence about its claim */
const EVIDENCE_FROM = 0.2;

/**
 * by claim, 1 when it has a finding about the claim itself behind it, flagged or not: supporting findings (a
 * long stay, a high price) flag no claim alone, yet where they gather says something of the provider. One
 * pass over the items that have findings, not over every item of every claim.
 */
function claimEvidence(batch: ColumnarBatchView, decisions: BatchDecisions): Uint8Array {
  const evidenced = new Uint8Array(batch.claimCount);
  for (const [i, findings] of decisions.itemFindings)
    if (
      findings.some(
        (finding) =>
          !PROVIDER_LEVEL.has(finding.code) &&
          (finding.typeDecision === "REJECT" || finding.score >= EVIDENCE_FROM),
      )
    )
      evidenced[batch.itemClaim[i] as number] = 1;
  return evidenced;
}

export function flagsBy(batch: ColumnarBatchView, decisions: BatchDecisions, column: Int32Array) {
  const byEntity = new Map<number, Flags>();
  const evidenced = claimEvidence(batch, decisions);
  let evidencedClaims = 0;
  for (let c = 0; c < batch.claimCount; c += 1) {
    const status = statusOf(decisions.claimStatus[c]);
    const withEvidence = evidenced[c] === 1;
    if (status === "approved" && !withEvidence) continue;
    const entity = column[c] as number;
    const flags = byEntity.get(entity) ?? { flagged: 0, rejected: 0, amount: 0, evidenced: 0 };
    if (status === "flagged") flags.flagged += 1;
    else if (status === "rejected") flags.rejected += 1;
    if (status !== "approved") flags.amount += claimAmount(batch, c);
    if (withEvidence) {
      flags.evidenced += 1;
      evidencedClaims += 1;
    }
    byEntity.set(entity, flags);
  }
  return { byEntity, batchShare: evidencedClaims / Math.max(1, batch.claimCount) };
}

export const NO_FLAGS: Flags = { flagged: 0, rejected: 0, amount: 0, evidenced: 0 };

/** the share of an entity's claims with evidence of their own beyond the batch's, shrunk toward it */
export function flagExcess(flags: Flags, claims: number, batchShare: number): number {
  const shrunk = (flags.evidenced + RANKING.shrinkClaims * batchShare) / (claims + RANKING.shrinkClaims);
  return shrunk - batchShare;
}

export function flagTermOf(
  flags: Flags,
  claims: number,
  batchShare: number,
  weight: number,
): { excess: number; term: RiskTerm } {
  const excess = flagExcess(flags, claims, batchShare);
  return {
    excess,
    term: {
      code: "FWA-RANK-FLAGS",
      description: "Claims with findings of their own",
      weight: weight * excess,
      cause: `${count(flags.evidenced)} of ${count(claims)} claims with a finding of their own of ${EVIDENCE_FROM} or more (${percent(flags.evidenced / claims)}, against ${percent(batchShare)} of the batch); ${count(flags.flagged + flags.rejected)} flagged or rejected, ${money(flags.amount)} in all`,
    },
  };
}

/** an entity's row: `risk` 0..1, `reasons` the terms that raised it, strongest first */
export function entityRanking(
  id: string,
  figures: { claims: number; items: number; amount: number },
  flags: Flags,
  risk: number,
  reasons: readonly RiskTerm[],
): EntityRanking {
  return {
    id,
    riskScore: round4(risk),
    claims: figures.claims,
    items: figures.items,
    claimedAmount: figures.amount,
    flaggedClaims: flags.flagged,
    rejectedClaims: flags.rejected,
    flaggedAmount: flags.amount,
    reasons: reasons.map(({ code, description, cause }) => ({ code, description, cause })),
  };
}

/** a ranking's entities in order, each row built when asked for (a page at a time) */
export interface RankedEntities {
  count: number;
  /** the rows of places from..to-1 (0-based) */
  rows(from: number, to: number): EntityRanking[];
}

export const byRisk = (a: EntityRanking, b: EntityRanking): number =>
  b.riskScore - a.riskScore || b.claimedAmount - a.claimedAmount || (a.id < b.id ? -1 : 1);
