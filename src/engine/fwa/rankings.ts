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
import { modelLogit, type ProviderFeature, type ProviderModel, standardised } from "./provider-model.js";
import { count, money, num, percent, sigmoid } from "./robust.js";
import { RANKING } from "./sensitivity.js";
import {
  claimAmount,
  PROVIDER_EXPOSURE,
  type ProviderTally,
  providerExposure,
  type RiskTerm,
  reasonsOf,
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

function flagTermOf(
  flags: Flags,
  claims: number,
  batchShare: number,
  weight: number,
): { excess: number; term: RiskTerm } {
  const shrunk = (flags.evidenced + RANKING.shrinkClaims * batchShare) / (claims + RANKING.shrinkClaims);
  const excess = shrunk - batchShare;
  return {
    excess,
    term: {
      code: "FWA-RANK-FLAGS",
      description: "Claims flagged or rejected by the detectors",
      weight: weight * excess,
      cause: `${count(flags.evidenced)} of ${count(claims)} claims flagged or rejected on their own evidence (${percent(flags.evidenced / claims)}, against ${percent(batchShare)} of the batch), ${money(flags.amount)} flagged in all`,
    },
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

/** a provider of the batch with the evidence its ranking weighs */
export interface ProviderEvidence {
  tally: ProviderTally;
  flags: Flags;
  /** PROVIDER_FEATURES, in order: what a learned model weighs and what outcomes teach it */
  features: number[];
  /** the unsupervised terms: exposure, then flags and profile */
  terms: RiskTerm[];
}

/** every provider of the batch with its features and unsupervised terms */
export function providerEvidence(batch: ColumnarBatchView, decisions: BatchDecisions): ProviderEvidence[] {
  const { byEntity, batchShare } = flagsBy(batch, decisions, batch.providerId);
  const weights = RANKING.provider;
  return [...providerExposure(batch).values()].map((tally) => {
    const flags = byEntity.get(tally.provider) ?? NO_FLAGS;
    const profile = decisions.providerScore.get(tally.provider) ?? 0;
    const flagTerm = flagTermOf(flags, tally.claims, batchShare, weights.flags);
    const features = [tally.volume, tally.amountRatio, tally.stayZ, tally.costZ, flagTerm.excess, profile];
    const terms: RiskTerm[] = [
      ...tally.terms,
      flagTerm.term,
      {
        code: "FWA-RANK-PROFILE",
        description: "Billing profile unlike its peers'",
        weight: weights.profile * profile,
        cause: `provider profile score ${num(profile, 2)} (its FWA-PROV-01 findings give the figures)`,
      },
    ];
    return { tally, flags, features, terms };
  });
}

/** what each feature says of a provider, for the reasons of a learned model */
const FEATURE_TEXT: Record<ProviderFeature, { description: string; cause: (e: ProviderEvidence) => string }> =
  {
    volume: { description: "Claims against the batch's average", cause: (e) => e.terms[0]?.cause ?? "" },
    amount: {
      description: "Amount billed against the batch's average",
      cause: (e) =>
        `${money(e.tally.amount)} billed, ${num(Math.exp(e.tally.amountRatio), 2)} times the batch's average provider`,
    },
    stay: { description: "Inpatient stays against the batch's", cause: (e) => e.terms[1]?.cause ?? "" },
    cost_per_day: {
      description: "Cost per stay day against the batch's",
      cause: (e) => e.terms[2]?.cause ?? "",
    },
    flags: {
      description: "Claims flagged or rejected by the detectors",
      cause: (e) => e.terms[3]?.cause ?? "",
    },
    profile: { description: "Billing profile unlike its peers'", cause: (e) => e.terms[4]?.cause ?? "" },
  };

/** the learned model's terms: each feature's part of its logit */
function modelTerms(model: ProviderModel, evidence: ProviderEvidence): RiskTerm[] {
  return model.features.map((feature, f) => {
    const weight = (model.weights[f] as number) * standardised(model, f, evidence.features[f] as number);
    const text = FEATURE_TEXT[feature];
    return {
      code: `FWA-MODEL-${feature.toUpperCase().replaceAll("_", "-")}`,
      description: `${text.description} (learned from ${count(model.examples)} outcomes)`,
      weight,
      cause: `${text.cause(evidence)}; the model weighs it ${weight >= 0 ? "+" : ""}${num(weight, 2)}`,
    };
  });
}

/**
 * Every provider ranked: by the tenant's learned model when it has one (its reasons name the features
 * that raised the score), else by the unsupervised terms.
 */
export function rankProviders(
  batch: ColumnarBatchView,
  evidence: readonly ProviderEvidence[],
  model?: ProviderModel,
): EntityRanking[] {
  const rows = evidence.map((e) => {
    const terms = model === undefined ? e.terms : modelTerms(model, e);
    const logit =
      model === undefined
        ? e.terms.reduce<number>((sum, term) => sum + term.weight, RANKING.provider.base)
        : modelLogit(model, e.features);
    return {
      ...ranking(textOf(batch, e.tally.provider), e.tally, e.flags, logit, terms),
      providerType: e.tally.providerType,
    };
  });
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
      flagTermOf(flags, m.claims, batchShare, weights.flags).term,
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
