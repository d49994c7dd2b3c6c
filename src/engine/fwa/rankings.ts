/**
 * The batch's providers and members ranked for audit (docs/operator-contract.md section 9). `risk_score` is
 * what an investigator should audit first: the evidence against an entity weighed with its exposure (how
 * much of the batch it bills), as a logistic score of terms, each computed within the batch alone and named
 * as a reason when it raised the score. Weights: sensitivity.ts (RANKING).
 * - providers: the exposure terms of stats-exposure.ts (volume, stay, cost per day), then the share of its
 *   claims that claim-level findings flagged or rejected beyond the batch's share (shrunk like the others),
 *   and the provider-profile detector's score;
 * - members: volume, the providers they saw beyond one, flags as for providers, and the member-pattern
 *   detectors' score.
 */
import { textOf } from "./columnar.js";
import { count, money, num, percent } from "./robust.js";
import { RANKING } from "./sensitivity.js";
import {
  claimAmount,
  PROVIDER_EXPOSURE,
  providerExposure,
  type RiskTerm,
  reasonsOf,
  sigmoid,
  volumeTerm,
} from "./stats-exposure.js";
import { PROVIDER_PROFILE } from "./stats-providers.js";
import type { BatchDecisions, ColumnarBatchView } from "./types.js";

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
interface Flags {
  flagged: number;
  rejected: number;
  amount: number;
  /** claims flagged or rejected by a finding about the claim itself (provider-level findings left out) */
  evidenced: number;
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** findings about the provider as a whole: its own terms weigh them, so its flags term leaves them out */
const PROVIDER_LEVEL: ReadonlySet<string> = new Set([PROVIDER_EXPOSURE, PROVIDER_PROFILE]);
/** a finding this strong is evidence about its claim */
const EVIDENCE_FROM = 0.2;

/** whether flagged or rejected claim c has a finding about the claim itself behind it */
function evidenced(batch: ColumnarBatchView, decisions: BatchDecisions, c: number): boolean {
  if (decisions.claimStatus[c] === "approved") return false;
  const end = batch.firstItem[c + 1] as number;
  for (let i = batch.firstItem[c] as number; i < end; i += 1)
    for (const finding of decisions.itemFindings.get(i) ?? [])
      if (
        !PROVIDER_LEVEL.has(finding.code) &&
        (finding.typeDecision === "REJECT" || finding.score >= EVIDENCE_FROM)
      )
        return true;
  return false;
}

function flagsBy(batch: ColumnarBatchView, decisions: BatchDecisions, column: Int32Array) {
  const byEntity = new Map<number, Flags>();
  let evidencedClaims = 0;
  for (let c = 0; c < batch.claimCount; c += 1) {
    const status = decisions.claimStatus[c];
    if (status === "approved") continue;
    const entity = column[c] as number;
    const flags = byEntity.get(entity) ?? { flagged: 0, rejected: 0, amount: 0, evidenced: 0 };
    if (status === "flagged") flags.flagged += 1;
    else flags.rejected += 1;
    flags.amount += claimAmount(batch, c);
    if (evidenced(batch, decisions, c)) {
      flags.evidenced += 1;
      evidencedClaims += 1;
    }
    byEntity.set(entity, flags);
  }
  return { byEntity, batchShare: evidencedClaims / Math.max(1, batch.claimCount) };
}

const NO_FLAGS: Flags = { flagged: 0, rejected: 0, amount: 0, evidenced: 0 };

function flagTerm(flags: Flags, claims: number, batchShare: number, weight: number): RiskTerm {
  const shrunk = (flags.evidenced + RANKING.shrinkClaims * batchShare) / (claims + RANKING.shrinkClaims);
  return {
    code: "FWA-RANK-FLAGS",
    description: "Claims flagged or rejected by the detectors",
    weight: weight * (shrunk - batchShare),
    cause: `${count(flags.evidenced)} of ${count(claims)} claims flagged or rejected on their own evidence (${percent(flags.evidenced / claims)}, against ${percent(batchShare)} of the batch), ${money(flags.amount)} flagged in all`,
  };
}

function ranking(
  id: string,
  figures: { claims: number; items: number; amount: number },
  flags: Flags,
  logit: number,
  terms: RiskTerm[],
): EntityRanking {
  return {
    id,
    riskScore: round4(sigmoid(logit)),
    claims: figures.claims,
    items: figures.items,
    claimedAmount: figures.amount,
    flaggedClaims: flags.flagged,
    rejectedClaims: flags.rejected,
    flaggedAmount: flags.amount,
    reasons: reasonsOf(terms).map(({ code, description, cause }) => ({ code, description, cause })),
  };
}

const byRisk = (a: EntityRanking, b: EntityRanking): number =>
  b.riskScore - a.riskScore || b.claimedAmount - a.claimedAmount || (a.id < b.id ? -1 : 1);

export function rankProviders(batch: ColumnarBatchView, decisions: BatchDecisions): EntityRanking[] {
  const { byEntity, batchShare } = flagsBy(batch, decisions, batch.providerId);
  const weights = RANKING.provider;
  const rows: EntityRanking[] = [];
  for (const t of providerExposure(batch).values()) {
    const flags = byEntity.get(t.provider) ?? NO_FLAGS;
    const profile = decisions.providerScore.get(t.provider) ?? 0;
    const terms: RiskTerm[] = [
      ...t.terms,
      flagTerm(flags, t.claims, batchShare, weights.flags),
      {
        code: "FWA-RANK-PROFILE",
        description: "Billing profile unlike its peers'",
        weight: weights.profile * profile,
        cause: `provider profile score ${num(profile, 2)} (its FWA-PROV-01 findings give the figures)`,
      },
    ];
    const logit = t.logit + terms.slice(t.terms.length).reduce((sum, term) => sum + term.weight, 0);
    rows.push({
      ...ranking(textOf(batch, t.provider), t, flags, logit, terms),
      providerType: t.providerType,
    });
  }
  return rows.sort(byRisk);
}

export function rankMembers(batch: ColumnarBatchView, decisions: BatchDecisions): EntityRanking[] {
  const { byEntity, batchShare } = flagsBy(batch, decisions, batch.memberId);
  const members = new Map<
    number,
    { claims: number; items: number; amount: number; providers: Set<number> }
  >();
  for (let c = 0; c < batch.claimCount; c += 1) {
    const member = batch.memberId[c] as number;
    const m = members.get(member) ?? { claims: 0, items: 0, amount: 0, providers: new Set<number>() };
    m.claims += 1;
    m.items += (batch.firstItem[c + 1] as number) - (batch.firstItem[c] as number);
    m.amount += claimAmount(batch, c);
    m.providers.add(batch.providerId[c] as number);
    members.set(member, m);
  }
  const average = batch.claimCount / Math.max(1, members.size);
  const weights = RANKING.member;
  const rows: EntityRanking[] = [];
  for (const [member, m] of members) {
    const flags = byEntity.get(member) ?? NO_FLAGS;
    const pattern = decisions.memberScore.get(member) ?? 0;
    const terms: RiskTerm[] = [
      volumeTerm(m.claims, m.amount, average, weights.volume),
      flagTerm(flags, m.claims, batchShare, weights.flags),
      {
        code: "FWA-RANK-PROVIDERS",
        description: "Several providers in one batch",
        weight: weights.providers * Math.log(m.providers.size),
        cause: `${count(m.providers.size)} providers in the batch`,
      },
      {
        code: "FWA-RANK-PATTERN",
        description: "Member pattern unlike other members'",
        weight: weights.pattern * pattern,
        cause: `member pattern score ${num(pattern, 2)} (its FWA-MEMBER findings give the figures)`,
      },
    ];
    const logit = terms.reduce<number>((sum, term) => sum + term.weight, weights.base);
    rows.push(ranking(textOf(batch, member), m, flags, logit, terms));
  }
  return rows.sort(byRisk);
}
