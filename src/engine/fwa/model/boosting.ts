/**
 * Gradient-boosted decision trees for a binary outcome: logistic loss, second-order (Newton) leaf
 * values and split gains as in XGBoost, L2 on leaf values, features pre-binned at quantiles (histogram splits),
 * row subsampling per tree and column subsampling per tree from a seeded PRNG: pure and deterministic (same
 * examples and options, same model). Every node keeps the value a tree would give if it stopped there, so a
 * prediction is split exactly into a bias and each feature's contribution (Saabas path attribution: a split's
 * change of value is its feature's). Also: grouped, stratified k-fold validation (a group, e.g. a provider,
 * stays in one fold: quality.ts's groupedFolds), and Platt scaling of the logit fitted on out-of-fold scores.
 */

import { seededRandom } from "../stats/random.js";
import { sigmoid } from "../stats/robust.js";
import { averagePrecision, groupedFolds, rocAuc } from "./quality.js";

export interface BoostingOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** least hessian sum (about p(1-p) x examples) in a leaf */
  minChildWeight: number;
  /** L2 on leaf values */
  lambda: number;
  /** least gain for a split */
  gamma: number;
  /** share of rows drawn (without replacement) for each tree */
  subsample: number;
  /** share of features each tree may split on */
  colsample: number;
  /** quantile bins per feature */
  bins: number;
  seed: number;
}

export const BOOSTING_DEFAULTS: BoostingOptions = {
  trees: 300,
  depth: 3,
  learningRate: 0.03,
  minChildWeight: 2,
  lambda: 2,
  gamma: 0,
  subsample: 0.8,
  colsample: 0.8,
  bins: 32,
  seed: 1,
};

/** one tree in flat arrays; a leaf has feature -1 */
export interface Tree {
  feature: number[];
  /** go left when x <= threshold (a missing or NaN value goes left) */
  threshold: number[];
  left: number[];
  right: number[];
  /** the node's value in logit units (already multiplied by the learning rate) */
  value: number[];
}

export interface BoostedModel {
  kind: "boosted-trees";
  features: readonly string[];
  /** the logit before any tree: the training examples' log-odds */
  base: number;
  trees: Tree[];
  /** Platt scaling of the raw logit: P = sigmoid(a * logit + b); a = 1, b = 0 when not calibrated */
  platt: { a: number; b: number };
  /** each feature's share of the total split gain */
  importance: number[];
  examples: number;
  positives: number;
}

/** the cut points of every feature: up to `bins - 1` midpoints between distinct quantile values */
function cutsOf(rows: readonly (readonly number[])[], d: number, bins: number): number[][] {
  const cuts: number[][] = [];
  for (let f = 0; f < d; f += 1) {
    const values = rows
      .map((r) => r[f] as number)
      .filter((v) => Number.isFinite(v))
      .sort((a, b) => a - b);
    const distinct: number[] = [];
    for (let q = 1; q < bins; q += 1) {
      const v = values[Math.min(values.length - 1, Math.floor((q / bins) * values.length))];
      if (v !== undefined && distinct[distinct.length - 1] !== v) distinct.push(v);
    }
    const c: number[] = [];
    const sortedDistinct = [...new Set(values)];
    // midpoint between a chosen value and the next distinct value above it
    let j = 0;
    for (const v of distinct) {
      while (j < sortedDistinct.length && (sortedDistinct[j] as number) <= v) j += 1;
      if (j < sortedDistinct.length) c.push((v + (sortedDistinct[j] as number)) / 2);
    }
    cuts.push([...new Set(c)]);
  }
  return cuts;
}

/** the bin of x among sorted cuts: the number of cuts below x (NaN: bin 0) */
function binOf(x: number, cuts: readonly number[]): number {
  if (Number.isNaN(x)) return 0;
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x > (cuts[mid] as number)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** fits the model; both classes must be present */
export function fitBoosted(
  rows: readonly (readonly number[])[],
  labels: readonly boolean[],
  features: readonly string[],
  options: Partial<BoostingOptions> = {},
): BoostedModel {
  const o = { ...BOOSTING_DEFAULTS, ...options };
  const n = rows.length;
  const d = features.length;
  const random = seededRandom(o.seed);
  const cuts = cutsOf(rows, d, o.bins);
  // binned columns
  const binned: Uint8Array[] = [];
  for (let f = 0; f < d; f += 1) {
    const col = new Uint8Array(n);
    const c = cuts[f] as number[];
    for (let i = 0; i < n; i += 1) col[i] = binOf(rows[i]?.[f] as number, c);
    binned.push(col);
  }
  const y = Float64Array.from(labels, (l) => (l ? 1 : 0));
  const positives = labels.filter(Boolean).length;
  const prior = Math.min(Math.max(positives / Math.max(1, n), 1e-6), 1 - 1e-6);
  const base = Math.log(prior / (1 - prior));
  const logit = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const gain = new Float64Array(d);
  const trees: Tree[] = [];
  const maxBins = Math.max(1, ...cuts.map((c) => c.length + 1));
  const histG = new Float64Array(maxBins);
  const histH = new Float64Array(maxBins);
  const all = Int32Array.from({ length: n }, (_, i) => i);

  for (let t = 0; t < o.trees; t += 1) {
    for (let i = 0; i < n; i += 1) {
      const p = sigmoid(logit[i] as number);
      g[i] = p - (y[i] as number);
      h[i] = Math.max(p * (1 - p), 1e-12);
    }
    // rows: a seeded partial shuffle; columns likewise
    let sample = all;
    if (o.subsample < 1) {
      const copy = all.slice();
      const take = Math.max(1, Math.round(o.subsample * n));
      for (let i = 0; i < take; i += 1) {
        const j = i + Math.floor(random() * (n - i));
        const tmp = copy[i] as number;
        copy[i] = copy[j] as number;
        copy[j] = tmp;
      }
      sample = copy.subarray(0, take).sort();
    }
    let columns = Array.from({ length: d }, (_, f) => f);
    if (o.colsample < 1) {
      for (let i = d - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [columns[i], columns[j]] = [columns[j] as number, columns[i] as number];
      }
      columns = columns.slice(0, Math.max(1, Math.round(o.colsample * d))).sort((a, b) => a - b);
    }
    const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
    const grow = (indexes: Int32Array, level: number): number => {
      let G = 0;
      let H = 0;
      for (const i of indexes) {
        G += g[i] as number;
        H += h[i] as number;
      }
      const node = tree.feature.length;
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.value.push((-G / (H + o.lambda)) * o.learningRate);
      if (level >= o.depth || H < 2 * o.minChildWeight) return node;
      const parentScore = (G * G) / (H + o.lambda);
      let best = o.gamma;
      let bestFeature = -1;
      let bestBin = -1;
      for (const f of columns) {
        const c = cuts[f] as number[];
        if (c.length === 0) continue;
        const col = binned[f] as Uint8Array;
        histG.fill(0, 0, c.length + 1);
        histH.fill(0, 0, c.length + 1);
        for (const i of indexes) {
          const b = col[i] as number;
          histG[b] = (histG[b] as number) + (g[i] as number);
          histH[b] = (histH[b] as number) + (h[i] as number);
        }
        let gl = 0;
        let hl = 0;
        for (let b = 0; b < c.length; b += 1) {
          gl += histG[b] as number;
          hl += histH[b] as number;
          const hr = H - hl;
          if (hl < o.minChildWeight || hr < o.minChildWeight) continue;
          const gr = G - gl;
          const score = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - parentScore;
          if (score > best) {
            best = score;
            bestFeature = f;
            bestBin = b;
          }
        }
      }
      if (bestFeature < 0) return node;
      gain[bestFeature] = (gain[bestFeature] as number) + best;
      const col = binned[bestFeature] as Uint8Array;
      let nLeft = 0;
      for (const i of indexes) if ((col[i] as number) <= bestBin) nLeft += 1;
      const leftRows = new Int32Array(nLeft);
      const rightRows = new Int32Array(indexes.length - nLeft);
      let a = 0;
      let b = 0;
      for (const i of indexes) {
        if ((col[i] as number) <= bestBin) leftRows[a++] = i;
        else rightRows[b++] = i;
      }
      tree.feature[node] = bestFeature;
      tree.threshold[node] = (cuts[bestFeature] as number[])[bestBin] as number;
      tree.left[node] = grow(leftRows, level + 1);
      tree.right[node] = grow(rightRows, level + 1);
      return node;
    };
    grow(sample, 0);
    trees.push(tree);
    for (let i = 0; i < n; i += 1)
      logit[i] = (logit[i] as number) + treeValue(tree, rows[i] as readonly number[]);
  }
  const totalGain = gain.reduce((s, v) => s + v, 0) || 1;
  return {
    kind: "boosted-trees",
    features: [...features],
    base,
    trees,
    platt: { a: 1, b: 0 },
    importance: Array.from(gain, (v) => v / totalGain),
    examples: n,
    positives,
  };
}

function treeValue(tree: Tree, x: readonly number[]): number {
  let node = 0;
  while ((tree.feature[node] as number) >= 0) {
    const v = x[tree.feature[node] as number] as number;
    node = (v > (tree.threshold[node] as number) ? tree.right[node] : tree.left[node]) as number;
  }
  return tree.value[node] as number;
}

/** the raw (uncalibrated) logit of a feature vector */
export function boostedLogit(model: BoostedModel, x: readonly number[]): number {
  let logit = model.base;
  for (const tree of model.trees) logit += treeValue(tree, x);
  return logit;
}

/** the calibrated probability of a feature vector */
export const boostedProbability = (model: BoostedModel, x: readonly number[]): number =>
  sigmoid(model.platt.a * boostedLogit(model, x) + model.platt.b);

/**
 * Each feature's part of the raw logit: along the path of every tree, the change of node value at a split is
 * its feature's. bias + sum(contributions) = boostedLogit exactly; multiplied by platt.a they are the parts of
 * the calibrated logit.
 */
export function boostedContributions(
  model: BoostedModel,
  x: readonly number[],
): { bias: number; contributions: number[] } {
  const contributions = new Array<number>(model.features.length).fill(0);
  let bias = model.base;
  for (const tree of model.trees) {
    let node = 0;
    bias += tree.value[0] as number;
    while ((tree.feature[node] as number) >= 0) {
      const f = tree.feature[node] as number;
      const v = x[f] as number;
      const next = (v > (tree.threshold[node] as number) ? tree.right[node] : tree.left[node]) as number;
      contributions[f] =
        (contributions[f] as number) + (tree.value[next] as number) - (tree.value[node] as number);
      node = next;
    }
  }
  return { bias, contributions };
}

/** Platt scaling: a and b maximising the likelihood of sigmoid(a * score + b), with Platt's target smoothing */
export function fitPlatt(scores: readonly number[], labels: readonly boolean[]): { a: number; b: number } {
  const pos = labels.filter(Boolean).length;
  const neg = labels.length - pos;
  const hi = (pos + 1) / (pos + 2);
  const lo = 1 / (neg + 2);
  let a = 1;
  let b = 0;
  for (let step = 0; step < 50; step += 1) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    for (let i = 0; i < scores.length; i += 1) {
      const s = scores[i] as number;
      const p = sigmoid(a * s + b);
      const t = labels[i] ? hi : lo;
      const w = p * (1 - p);
      ga += (p - t) * s;
      gb += p - t;
      haa += w * s * s;
      hab += w * s;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (Math.abs(det) < 1e-12) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-9 && Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}

/**
 * The model a tenant gets: fitted on all its examples, calibrated by Platt scaling on grouped out-of-fold
 * logits, with the validation figures (ROC-AUC, PR-AUC) of those out-of-fold scores.
 */
export function trainBoosted(
  rows: readonly (readonly number[])[],
  labels: readonly boolean[],
  groups: readonly string[],
  features: readonly string[],
  options: Partial<BoostingOptions> = {},
  folds = 5,
): { model: BoostedModel; validation: { roc_auc: number; pr_auc: number; folds: number } } {
  // out-of-fold raw logits of every example (0 where the other folds lack a class)
  const foldOf = groupedFolds(groups, labels, folds, options.seed ?? BOOSTING_DEFAULTS.seed);
  const oof = new Array<number>(rows.length).fill(0);
  for (let fold = 0; fold < folds; fold += 1) {
    const train = rows.flatMap((_, i) => (foldOf.get(groups[i] as string) !== fold ? [i] : []));
    const trainLabels = train.map((i) => labels[i] as boolean);
    if (!trainLabels.some(Boolean) || trainLabels.every(Boolean)) continue;
    const foldModel = fitBoosted(
      train.map((i) => rows[i] as number[]),
      trainLabels,
      features,
      options,
    );
    rows.forEach((x, i) => {
      if (foldOf.get(groups[i] as string) === fold) oof[i] = boostedLogit(foldModel, x);
    });
  }
  const model = fitBoosted(rows, labels, features, options);
  model.platt = fitPlatt(oof, labels);
  const pos = oof.filter((_, i) => labels[i]);
  const neg = oof.filter((_, i) => !labels[i]);
  return { model, validation: { roc_auc: rocAuc(pos, neg), pr_auc: averagePrecision(pos, neg), folds } };
}
