/**
 * The batch's providers ranked for audit (docs/operator-contract.md section 9). `risk_score` is what an
 * investigator should audit first: the evidence against a provider weighed with its exposure (how much of
 * the batch it bills), as a logistic score of terms, each computed within the batch alone and named as a
 * reason when it raised the score: the exposure terms of stats/exposure.ts (volume, stay, cost per day), the
 * flags term (ranking/entity.ts) and the provider-profile detector's score. A tenant's learned model
 * (model/provider-model.ts), when it has one, weighs the same features instead. Weights: sensitivity.ts
 * (RANKING).
 */
import { textOf } from "../columns/columnar.js";
import {
  modelLogit,
  type ProviderFeature,
  type ProviderModel,
  standardised,
} from "../model/provider-model.js";
import { RANKING } from "../sensitivity.js";
import { type ProviderTally, providerExposure, type RiskTerm } from "../stats/exposure.js";
import { count, money, num } from "../stats/format.js";
import type { BatchDecisions, ColumnarBatchView } from "../types.js";
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
      description: "Claims with findings of their own",
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
      ...entityRanking(textOf(batch, e.tally.provider), e.tally, e.flags, logit, terms),
      providerType: e.tally.providerType,
    };
  });
  return rows.sort(byRisk);
}
