/**
 * An isolation forest (Liu, Ting and Zhou, 2008), deterministic: a seeded PRNG, a fixed number of trees and
 * sample size. Each tree isolates a random sample of rows by random splits (a random feature among those that
 * still vary in the node, a split uniform between its minimum and maximum there) up to a height limit of
 * ceil(log2 sampleSize). Anomalies are few and different, so they are isolated in fewer splits: a row's score
 * is 2^(-E[h] / c(sampleSize)), with h its path length through a tree (plus c(size) at a leaf that still
 * holds `size` rows) and c(n) the average path length of an unsuccessful search in a binary search tree of n
 * keys. Scores are in (0, 1): about 0.5 and below for ordinary rows, towards 1 for anomalies. Rows are
 * features in one Float64Array, row-major; trees live in typed arrays.
 */
import { seededRandom } from "../stats/random.js";

export interface ForestOptions {
  trees: number;
  sampleSize: number;
  seed: number;
}

const EULER = 0.5772156649015329;

/** the average path length of an unsuccessful search among n keys */
export function averagePath(n: number): number {
  if (n <= 1) return 0;
  if (n === 2) return 1;
  return 2 * (Math.log(n - 1) + EULER) - (2 * (n - 1)) / n;
}

/** the anomaly score of every row of `rows` (n rows of d features) */
export function isolationScores(
  rows: Float64Array,
  n: number,
  d: number,
  options: ForestOptions,
): Float64Array {
  const scores = new Float64Array(n);
  if (n === 0) return scores;
  const random = seededRandom(options.seed);
  const sample = Math.max(1, Math.min(options.sampleSize, n));
  const limit = Math.ceil(Math.log2(Math.max(2, sample)));
  const maxNodes = 2 * sample + 1;
  const feature = new Int32Array(maxNodes);
  const split = new Float64Array(maxNodes);
  const left = new Int32Array(maxNodes);
  const right = new Int32Array(maxNodes);
  const size = new Int32Array(maxNodes);
  const permutation = new Int32Array(n);
  for (let i = 0; i < n; i += 1) permutation[i] = i;
  const members = new Int32Array(sample);
  const pathSum = new Float64Array(n);
  const stack = new Int32Array(4 * maxNodes);

  for (let t = 0; t < options.trees; t += 1) {
    // a sample without replacement: a partial Fisher-Yates shuffle
    for (let k = 0; k < sample; k += 1) {
      const j = k + Math.floor(random() * (n - k));
      const swap = permutation[k] as number;
      permutation[k] = permutation[j] as number;
      permutation[j] = swap;
      members[k] = permutation[k] as number;
    }
    // build, depth first: stack of (node, lo, hi, depth)
    let nodes = 1;
    let top = 0;
    stack[top++] = 0;
    stack[top++] = 0;
    stack[top++] = sample;
    stack[top++] = 0;
    while (top > 0) {
      const depth = stack[--top] as number;
      const hi = stack[--top] as number;
      const lo = stack[--top] as number;
      const node = stack[--top] as number;
      size[node] = hi - lo;
      feature[node] = -1;
      if (hi - lo <= 1 || depth >= limit) continue;
      // a random feature that varies here
      const first = Math.floor(random() * d);
      let chosen = -1;
      let min = 0;
      let max = 0;
      for (let k = 0; k < d && chosen < 0; k += 1) {
        const f = (first + k) % d;
        min = Number.POSITIVE_INFINITY;
        max = Number.NEGATIVE_INFINITY;
        for (let r = lo; r < hi; r += 1) {
          const v = rows[(members[r] as number) * d + f] as number;
          if (v < min) min = v;
          if (v > max) max = v;
        }
        if (max > min) chosen = f;
      }
      if (chosen < 0) continue;
      const at = min + random() * (max - min);
      // partition members[lo, hi) by value < at
      let i = lo;
      let j = hi - 1;
      while (i <= j) {
        if ((rows[(members[i] as number) * d + chosen] as number) < at) i += 1;
        else {
          const swap = members[i] as number;
          members[i] = members[j] as number;
          members[j] = swap;
          j -= 1;
        }
      }
      // a split strictly inside (min, max] leaves both sides non-empty, barring rounding
      if (i === lo || i === hi) continue;
      feature[node] = chosen;
      split[node] = at;
      const l = nodes++;
      const r = nodes++;
      left[node] = l;
      right[node] = r;
      stack[top++] = l;
      stack[top++] = lo;
      stack[top++] = i;
      stack[top++] = depth + 1;
      stack[top++] = r;
      stack[top++] = i;
      stack[top++] = hi;
      stack[top++] = depth + 1;
    }
    // every row's path length through this tree
    for (let row = 0; row < n; row += 1) {
      let node = 0;
      let depth = 0;
      while ((feature[node] as number) >= 0) {
        const v = rows[row * d + (feature[node] as number)] as number;
        node = v < (split[node] as number) ? (left[node] as number) : (right[node] as number);
        depth += 1;
      }
      pathSum[row] = (pathSum[row] as number) + depth + averagePath(size[node] as number);
    }
  }
  const norm = averagePath(sample);
  for (let row = 0; row < n; row += 1) {
    const mean = (pathSum[row] as number) / options.trees;
    scores[row] = norm > 0 ? 2 ** (-mean / norm) : 0.5;
  }
  return scores;
}
