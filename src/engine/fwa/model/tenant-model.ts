/**
 * A tenant's learned provider model (docs/fwa.md section 6): the logistic regression over PROVIDER_FEATURES
 * (provider-model.ts) and, with enough outcomes, gradient-boosted trees (boosting.ts) over those and the
 * rich features of stats/provider-features.ts; the one whose provider-grouped cross-validated ROC-AUC is
 * higher is kept. An example's features are PROVIDER_FEATURES then RICH_FEATURES (TENANT_FEATURES); older
 * examples hold PROVIDER_FEATURES alone, and then only the logistic regression is fitted.
 */
import { RICH_FEATURES } from "../stats/provider-features.js";
import { sigmoid } from "../stats/robust.js";
import { type BoostedModel, boostedContributions, boostedProbability, trainBoosted } from "./boosting.js";
import {
  fitProviderModel,
  type LabelledExample,
  type ModelValidation,
  modelLogit,
  PROVIDER_FEATURES,
  type ProviderModel,
  validateProviderModel,
} from "./provider-model.js";

/** what an example of a tenant holds, in order */
export const TENANT_FEATURES: readonly string[] = [...PROVIDER_FEATURES, ...RICH_FEATURES];

/** a provider's example row in TENANT_FEATURES' order, from its evidence (ranking/providers.ts) */
export const tenantFeaturesOf = (evidence: {
  features: readonly number[];
  rich: readonly number[];
}): number[] => [...evidence.features, ...evidence.rich];

/** the trees are fitted from this many outcomes with this many of each verdict (fewer: they overfit) */
export const BOOSTING_MIN = { examples: 100, perClass: 20 } as const;

/**
 * the trees with `weights`: each feature's contributions over the training examples regressed on its value,
 * in logit per standard deviation (the linear summary `GET /fwa/model` shows, as a logistic model's weights)
 */
export type BoostedTenantModel = BoostedModel & { weights: number[] };

export type TenantModel = ProviderModel | BoostedTenantModel;

/** the model fitted, its validation, and every candidate's (kind and held-out ROC-AUC / PR-AUC) */
export interface TenantFit {
  model: TenantModel;
  validation: ModelValidation;
  candidates: { kind: string; validation: ModelValidation }[];
}

/** whether the trees may be fitted on these examples */
function boostable(examples: readonly LabelledExample[]): boolean {
  const positives = examples.filter((e) => e.fraud).length;
  return (
    examples.length >= BOOSTING_MIN.examples &&
    positives >= BOOSTING_MIN.perClass &&
    examples.length - positives >= BOOSTING_MIN.perClass &&
    examples.every((e) => e.features.length === TENANT_FEATURES.length)
  );
}

/** fits the logistic regression and, when the examples allow it, the trees; keeps the better validated */
export function fitTenantModel(examples: readonly LabelledExample[]): TenantFit {
  const logistic = { model: fitProviderModel(examples), validation: validateProviderModel(examples) };
  const candidates = [{ kind: "logistic", validation: logistic.validation }];
  if (!boostable(examples)) return { ...logistic, candidates };
  const trees = trainBoosted(
    examples.map((e) => e.features),
    examples.map((e) => e.fraud),
    examples.map((e) => e.provider),
    TENANT_FEATURES,
  );
  candidates.push({ kind: trees.model.kind, validation: trees.validation });
  if (trees.validation.roc_auc <= logistic.validation.roc_auc) return { ...logistic, candidates };
  const model = { ...trees.model, weights: linearWeights(trees.model, examples) };
  return { model, validation: trees.validation, candidates };
}

/** each feature's contributions regressed on its value: logit per standard deviation */
function linearWeights(model: BoostedModel, examples: readonly LabelledExample[]): number[] {
  const parts = examples.map((e) => boostedContributions(model, e.features).contributions);
  return model.features.map((_, f) => {
    const n = examples.length;
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / n;
    const x = examples.map((e) => e.features[f] as number);
    const y = parts.map((p) => (p[f] as number) * model.platt.a);
    const mx = mean(x);
    const my = mean(y);
    let sxy = 0;
    let sxx = 0;
    for (let i = 0; i < n; i += 1) {
      sxy += ((x[i] as number) - mx) * ((y[i] as number) - my);
      sxx += ((x[i] as number) - mx) ** 2;
    }
    return sxx > 0 ? sxy / Math.sqrt(sxx * n) : 0;
  });
}

export const isBoosted = (model: TenantModel): model is BoostedTenantModel =>
  (model as BoostedModel).kind === "boosted-trees";

/** a provider's calibrated probability under the model, and each feature's part of its logit */
export function tenantScore(
  model: TenantModel,
  features: readonly number[],
): { risk: number; contributions: number[] } {
  if (isBoosted(model)) {
    const { contributions } = boostedContributions(model, features);
    return {
      risk: boostedProbability(model, features),
      contributions: contributions.map((c) => c * model.platt.a),
    };
  }
  return {
    risk: sigmoid(modelLogit(model, features)),
    contributions: model.weights.map(
      (w, f) => (w * ((features[f] as number) - (model.means[f] as number))) / (model.scales[f] as number),
    ),
  };
}

/** each feature's weight as `GET /fwa/model` shows it, in logit per standard deviation */
export function featureWeights(model: TenantModel): { name: string; weight: number }[] {
  return model.features.map((name, f) => ({ name, weight: model.weights[f] ?? 0 }));
}
