/**
 * The batch's providers ranked for audit (docs/operator-contract.md section 9). `risk_score` is what an
 * investigator should audit first: the evidence against a provider weighed with its exposure (how much of
 * the batch it bills), as a logistic score of terms, each computed within the batch alone and named as a
 * reason when it raised the score: the exposure terms of stats/exposure.ts (volume, stay, cost per day), the
 * flags term (ranking/entity.ts) and the provider-profile detector's score. A batch spanning AUDIT.minMonths
 * months or more (a year's audit) is ranked by the audit score of ranking/audit.ts instead, the logistic
 * score one of its terms. A tenant's learned model (model/tenant-model.ts), when it has one, weighs the
 * features instead, its reasons each feature's part of the score. Weights: sensitivity.ts (RANKING, AUDIT).
 */
import { textOf } from "../columns/columnar.js";
import type { ProviderFeature } from "../model/provider-model.js";
import { type TenantModel, tenantFeaturesOf, tenantScore } from "../model/tenant-model.js";
import { AUDIT, RANKING } from "../sensitivity.js";
import { type ProviderTally, providerExposure, type RiskTerm, reasonsOf } from "../stats/exposure.js";
import { count, money, num, percent } from "../stats/format.js";
import {
  periodMonths,
  providerFeatureTable,
  RICH_FEATURE_TEXT,
  RICH_FEATURES,
  type RichFeature,
} from "../stats/provider-features.js";
import { sigmoid } from "../stats/robust.js";
import type { BatchDecisions, ColumnarBatchView } from "../types.js";
import { auditScores } from "./audit.js";
import {
  byRisk,
  type EntityRanking,
  entityRanking,
  type Flags,
  flagsBy,
  flagTermOf,
  NO_FLAGS,
} from "./entity.js";

/** a provider of the batch with the evidence its ranking weighs */
export interface ProviderEvidence {
  tally: ProviderTally;
  flags: Flags;
  /** PROVIDER_FEATURES, in order: what a learned model weighs and what outcomes teach it */
  features: number[];
  /** the unsupervised terms: exposure, then flags and profile */
  terms: RiskTerm[];
  /** RICH_FEATURES (stats/provider-features.ts), in order: what the yearly audit ranks */
  rich: number[];
}

/** every provider of the batch with its features and unsupervised terms */
export function providerEvidence(batch: ColumnarBatchView, decisions: BatchDecisions): ProviderEvidence[] {
  const { byEntity, batchShare } = flagsBy(batch, decisions, batch.providerId);
  const weights = RANKING.provider;
  const table = providerFeatureTable(batch);
  const richOf = new Map(table.providers.map((provider, row) => [provider, table.rows[row] as number[]]));
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
    return { tally, flags, features, terms, rich: richOf.get(tally.provider) ?? [] };
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
      description: "Claims with findings of their own",
      cause: (e) => e.terms[3]?.cause ?? "",
    },
    profile: { description: "Billing profile unlike its peers'", cause: (e) => e.terms[4]?.cause ?? "" },
  };

/** the learned model's terms: each feature's part of its logit, with the figure it read */
function modelTerms(model: TenantModel, evidence: ProviderEvidence, contributions: number[]): RiskTerm[] {
  return model.features.map((feature, f) => {
    const weight = contributions[f] as number;
    const base = FEATURE_TEXT[feature as ProviderFeature] as
      | (typeof FEATURE_TEXT)[ProviderFeature]
      | undefined;
    const rich = feature as RichFeature;
    const [description, figure] =
      base !== undefined
        ? [base.description, base.cause(evidence)]
        : [
            RICH_FEATURE_TEXT[rich],
            `${RICH_FEATURE_TEXT[rich]}: ${num(evidence.rich[RICH_FEATURES.indexOf(rich)] as number, 3)}`,
          ];
    return {
      code: `FWA-MODEL-${feature.toUpperCase().replaceAll("_", "-")}`,
      description: `${description} (learned from ${count(model.examples)} outcomes)`,
      weight,
      cause: `${figure}; the model weighs it ${weight >= 0 ? "+" : ""}${num(weight, 2)}`,
    };
  });
}

/** the unsupervised logit of a provider: its terms over RANKING.provider.base */
const logitOf = (e: ProviderEvidence): number =>
  e.terms.reduce<number>((sum, term) => sum + term.weight, RANKING.provider.base);

const feature = (e: ProviderEvidence, name: (typeof RICH_FEATURES)[number]): number =>
  e.rich[RICH_FEATURES.indexOf(name)] as number;

/** what each audit term says of a provider, for its reasons */
const AUDIT_TEXT: Record<
  (typeof AUDIT.terms)[number]["feature"],
  { code: string; description: string; cause: (e: ProviderEvidence) => string }
> = {
  log_amount: {
    code: "FWA-AUDIT-AMOUNT",
    description: "Amount billed over the period",
    cause: (e) => `${money(e.tally.amount)} billed over ${count(e.tally.claims)} claims`,
  },
  ranking: {
    code: "FWA-AUDIT-RANKING",
    description: "Exposure and evidence against the batch's",
    cause: (e) =>
      `exposure and evidence score ${num(sigmoid(logitOf(e)), 2)}` +
      (reasonsOf(e.terms).length > 0
        ? ` (${reasonsOf(e.terms)
            .map((t) => t.cause)
            .join("; ")})`
        : ""),
  },
  longest_stay: {
    code: "FWA-AUDIT-LONGEST-STAY",
    description: "Longest stay over the period",
    cause: (e) => `its longest stay ${count(feature(e, "longest_stay"))} days`,
  },
  claims_per_member: {
    code: "FWA-AUDIT-REPEAT",
    description: "Claims per patient",
    cause: (e) => `${num(feature(e, "claims_per_member"), 2)} claims per patient`,
  },
  claim_lag: {
    code: "FWA-AUDIT-CLAIM-LAG",
    description: "Claims dated long before discharge",
    cause: (e) => {
      const lag = feature(e, "claim_lag");
      return `claims dated ${num(Math.abs(lag), 1)} days ${lag <= 0 ? "before" : "after"} discharge on average`;
    },
  },
  long_stay_share: {
    code: "FWA-AUDIT-LONG-STAYS",
    description: "Stays longer than twice the diagnosis' median",
    cause: (e) =>
      `${percent(feature(e, "long_stay_share"))} of its stays longer than twice the batch's median stay for the same diagnosis`,
  },
  shared_member_share: {
    code: "FWA-AUDIT-OWN-PATIENTS",
    description: "Patients seen by no other provider",
    cause: (e) =>
      `${percent(feature(e, "shared_member_share"))} of its patients also claimed at another provider of the batch`,
  },
};

/** the audit's reasons: the terms the provider ranks high on, the heaviest first */
function auditReasons(e: ProviderEvidence, ranks: readonly number[], providers: number): RiskTerm[] {
  return AUDIT.terms
    .map(({ feature: name, weight }, k) => ({ text: AUDIT_TEXT[name], weight, rank: ranks[k] as number }))
    .filter(({ rank }) => rank >= AUDIT.reasonFrom)
    .sort((a, b) => Math.abs(b.weight) * b.rank - Math.abs(a.weight) * a.rank)
    .map(({ text, weight, rank }) => ({
      code: text.code,
      description: text.description,
      weight: Math.abs(weight) * rank,
      cause: `${text.cause(e)}: ${weight >= 0 ? "higher" : "lower"} than ${percent(rank)} of the batch's ${count(providers - 1)} other providers (audit weight ${num(Math.abs(weight), 1)})`,
    }));
}

/**
 * Every provider ranked: by the tenant's learned model when it has one (its reasons name the features
 * that raised the score); else, in a batch spanning AUDIT.minMonths months or more, by the audit score;
 * else by the unsupervised terms.
 */
export function rankProviders(
  batch: ColumnarBatchView,
  evidence: readonly ProviderEvidence[],
  model?: TenantModel,
): EntityRanking[] {
  const audit =
    model === undefined && periodMonths(batch) >= AUDIT.minMonths
      ? auditScores(
          evidence.map((e) => e.rich),
          evidence.map(logitOf),
        )
      : undefined;
  const riskOf = (e: ProviderEvidence, k: number): [number, RiskTerm[]] => {
    if (model !== undefined) {
      const learned = tenantScore(model, tenantFeaturesOf(e));
      return [learned.risk, reasonsOf(modelTerms(model, e, learned.contributions))];
    }
    const scored = audit?.[k];
    if (scored !== undefined) return [scored.score, auditReasons(e, scored.ranks, evidence.length)];
    return [sigmoid(logitOf(e)), reasonsOf(e.terms)];
  };
  const rows = evidence.map((e, k) => {
    const [risk, reasons] = riskOf(e, k);
    return {
      ...entityRanking(textOf(batch, e.tally.provider), e.tally, e.flags, risk, reasons),
      providerType: e.tally.providerType,
    };
  });
  return rows.sort(byRisk);
}
