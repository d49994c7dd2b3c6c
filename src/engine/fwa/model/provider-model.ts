/**
 * A tenant's provider model, learned from its investigators' outcomes (docs/fwa.md section 6): an
 * L2-regularised logistic regression over the per-provider features of the analysis (PROVIDER_FEATURES),
 * standardised on the examples, fitted by Newton's method (IRLS). Pure: examples in, model and validation
 * figures out. Validation is stratified k-fold cross-validation over the examples: each outcome is scored by
 * a model that never saw it, and ROC-AUC and PR-AUC are taken over those held-out scores.
 */

import { sigmoid } from "../stats/robust.js";
import { averagePrecision, groupedFolds, rocAuc } from "./quality.js";

/** the features of a provider in a batch, in this order (ranking/providers.ts computes them); an example may
 * hold more after them (tenant-model.ts), which this model does not read */
export const PROVIDER_FEATURES = ["volume", "amount", "stay", "cost_per_day", "flags", "profile"] as const;
export type ProviderFeature = (typeof PROVIDER_FEATURES)[number];

export interface LabelledExample {
  /** PROVIDER_FEATURES, in order */
  features: readonly number[];
  fraud: boolean;
  /** the provider it describes: one provider's examples (one per batch) stay in one validation fold */
  provider: string;
}

export interface ProviderModel {
  /** absent on models stored before the trees came (all logistic) */
  kind?: "logistic";
  features: readonly ProviderFeature[];
  /** each feature's mean and scale over the training examples: z = (x - mean) / scale */
  means: number[];
  scales: number[];
  /** per standardised feature, in logit units */
  weights: number[];
  intercept: number;
  /** examples it was trained on, and the fraud-labelled among them */
  examples: number;
  positives: number;
}

export interface ModelValidation {
  roc_auc: number;
  pr_auc: number;
  folds: number;
}

/** the L2 penalty on standardised weights: strong enough that a few dozen outcomes cannot run away */
const L2 = 1;
const NEWTON_STEPS = 25;

/** solves A x = b for a small dense symmetric positive definite A (Gaussian elimination with pivoting) */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1)
      if (Math.abs(m[r]?.[col] as number) > Math.abs(m[pivot]?.[col] as number)) pivot = r;
    [m[col], m[pivot]] = [m[pivot] as number[], m[col] as number[]];
    const head = m[col] as number[];
    const p = head[col] as number;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const row = m[r] as number[];
      const factor = (row[col] as number) / p;
      for (let c = col; c <= n; c += 1) row[c] = (row[c] as number) - factor * (head[c] as number);
    }
  }
  return m.map((row, i) => {
    const p = row[i] as number;
    return Math.abs(p) < 1e-12 ? 0 : (row[n] as number) / p;
  });
}

/** the logit of a feature vector under the model */
export function modelLogit(model: ProviderModel, features: readonly number[]): number {
  let logit = model.intercept;
  for (let f = 0; f < model.weights.length; f += 1)
    logit += (model.weights[f] as number) * standardised(model, f, features[f] as number);
  return logit;
}

/** feature f of a provider in the model's standard deviations */
const standardised = (model: ProviderModel, f: number, value: number): number =>
  (value - (model.means[f] as number)) / (model.scales[f] as number);

/** fits the model to the examples; both classes must be present */
export function fitProviderModel(examples: readonly LabelledExample[]): ProviderModel {
  const k = PROVIDER_FEATURES.length;
  const n = examples.length;
  const means = Array.from(
    { length: k },
    (_, f) => examples.reduce((s, e) => s + (e.features[f] ?? 0), 0) / n,
  );
  const scales = means.map((mean, f) => {
    const variance = examples.reduce((s, e) => s + ((e.features[f] ?? 0) - mean) ** 2, 0) / n;
    return Math.sqrt(variance) || 1;
  });
  const x = examples.map((e) => [
    1,
    ...means.map((mean, f) => ((e.features[f] ?? 0) - mean) / (scales[f] as number)),
  ]);
  const y: number[] = examples.map((e) => (e.fraud ? 1 : 0));
  let beta: number[] = new Array(k + 1).fill(0);
  for (let step = 0; step < NEWTON_STEPS; step += 1) {
    const gradient: number[] = beta.map((b, j) => (j === 0 ? 0 : L2 * b));
    const hessian: number[][] = beta.map((_, i) => beta.map((__, j) => (i === j && i > 0 ? L2 : 0)));
    for (let i = 0; i < n; i += 1) {
      const row = x[i] as number[];
      const p = sigmoid(row.reduce((s, v, j) => s + v * (beta[j] as number), 0));
      const w = p * (1 - p);
      for (let a = 0; a <= k; a += 1) {
        gradient[a] = (gradient[a] as number) + (p - (y[i] as number)) * (row[a] as number);
        const h = hessian[a] as number[];
        for (let b = 0; b <= k; b += 1) h[b] = (h[b] as number) + w * (row[a] as number) * (row[b] as number);
      }
    }
    const delta = solve(hessian, gradient);
    beta = beta.map((b, j) => b - (delta[j] as number));
    if (delta.every((d) => Math.abs(d) < 1e-8)) break;
  }
  return {
    kind: "logistic",
    features: PROVIDER_FEATURES,
    means,
    scales,
    weights: beta.slice(1),
    intercept: beta[0] as number,
    examples: n,
    positives: examples.filter((e) => e.fraud).length,
  };
}

/**
 * Stratified k-fold cross-validation by provider: the providers of each class (a provider is fraud when any
 * of its outcomes says so) dealt over `folds` folds in a seeded order, so that no provider is scored by a
 * model that saw its other batches; each fold scored by a model fitted on the others.
 */
export function validateProviderModel(
  examples: readonly LabelledExample[],
  folds = 5,
  seed = 1,
): ModelValidation {
  const foldOf = groupedFolds(
    examples.map((e) => e.provider),
    examples.map((e) => e.fraud),
    folds,
    seed,
  );
  const positives: number[] = [];
  const negatives: number[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const training = examples.filter((e) => foldOf.get(e.provider) !== fold);
    if (!training.some((e) => e.fraud) || !training.some((e) => !e.fraud)) continue;
    const model = fitProviderModel(training);
    for (const e of examples)
      if (foldOf.get(e.provider) === fold)
        (e.fraud ? positives : negatives).push(modelLogit(model, e.features));
  }
  return { roc_auc: rocAuc(positives, negatives), pr_auc: averagePrecision(positives, negatives), folds };
}
