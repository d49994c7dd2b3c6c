/**
 * Robust statistics shared by the statistical detectors: grouping by an integer key (counting sort),
 * medians, MAD and quantiles of sorted typed arrays, and the evidence-to-score curve. Everything works on
 * typed arrays; nothing allocates per item.
 */

/** 1.4826 * MAD estimates the standard deviation of a normal distribution */
const MAD_TO_SD = 1.4826;
/** the 90th percentile of a standard normal distribution */
const Z90 = 1.2815515655446004;

/**
 * Indexes grouped by an integer key (a stable counting sort): the indexes of key k are
 * `order[start[k] .. start[k + 1] - 1]`, in increasing index order.
 */
export interface Groups {
  readonly start: Int32Array;
  readonly order: Int32Array;
}

/** the size of the largest group: a buffer for one group's values at a time, not one for every index */
export function largestGroup({ start }: Groups): number {
  let largest = 0;
  for (let k = 0; k + 1 < start.length; k += 1)
    largest = Math.max(largest, (start[k + 1] as number) - (start[k] as number));
  return largest;
}

/**
 * Groups the indexes 0..keys.length-1 by `keys[i]` (0 <= key < keyCount); an index whose key is negative is
 * left out. `within`, when given, is an order to keep inside each group (a permutation of indexes, e.g. by
 * date): the result lists each group's indexes in that order.
 */
export function groupBy(keys: Int32Array, keyCount: number, within?: Int32Array): Groups {
  const start = new Int32Array(keyCount + 1);
  let kept = 0;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as number;
    if (key >= 0) {
      start[key + 1] = (start[key + 1] as number) + 1;
      kept += 1;
    }
  }
  for (let k = 0; k < keyCount; k += 1) start[k + 1] = (start[k + 1] as number) + (start[k] as number);
  const next = start.slice(0, keyCount);
  const order = new Int32Array(kept);
  const n = keys.length;
  for (let r = 0; r < n; r += 1) {
    const i = within === undefined ? r : (within[r] as number);
    const key = keys[i] as number;
    if (key < 0) continue;
    const at = next[key] as number;
    order[at] = i;
    next[key] = at + 1;
  }
  return { start, order };
}

/** indexes 0..values.length-1 ordered by value (ties by index): a counting sort over the value range */
export function orderByDay(values: Int32Array, missing: number): Int32Array {
  const n = values.length;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i += 1) {
    const v = values[i] as number;
    if (v === missing) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const order = new Int32Array(n);
  if (min > max) {
    for (let i = 0; i < n; i += 1) order[i] = i;
    return order;
  }
  // missing days sort first (bucket 0)
  const span = max - min + 2;
  const count = new Int32Array(span + 1);
  const bucket = (v: number): number => (v === missing ? 0 : v - min + 1);
  for (let i = 0; i < n; i += 1) {
    const b = bucket(values[i] as number);
    count[b + 1] = (count[b + 1] as number) + 1;
  }
  for (let b = 0; b < span; b += 1) count[b + 1] = (count[b + 1] as number) + (count[b] as number);
  for (let i = 0; i < n; i += 1) {
    const b = bucket(values[i] as number);
    const at = count[b] as number;
    order[at] = i;
    count[b] = at + 1;
  }
  return order;
}

/**
 * The q-quantile (0..1) of n values, by linear interpolation between two order statistics: `rank(k)` gives
 * the k-th smallest, asked for k = floor(q (n - 1)) and then, when there is one, for the next.
 */
export function quantileOfRanks(n: number, q: number, rank: (k: number) => number): number {
  if (n <= 0) return Number.NaN;
  const position = q * (n - 1);
  const low = Math.floor(position);
  const a = rank(low);
  const b = low + 1 < n ? rank(low + 1) : a;
  return a + (b - a) * (position - low);
}

/** the q-quantile (0..1) of sorted values[from, to) */
export const quantileSorted = (values: Float64Array, from: number, to: number, q: number): number =>
  quantileOfRanks(to - from, q, (k) => values[from + k] as number);

export const medianSorted = (values: Float64Array, from: number, to: number): number =>
  quantileSorted(values, from, to, 0.5);

/**
 * Median absolute deviation of sorted values[from, to) around `center` (their median), in O(n): the
 * deviations below the center, read leftwards, and above it, read rightwards, are both increasing, so the
 * median deviation is found by merging the two runs up to the middle.
 */
export function madSorted(values: Float64Array, from: number, to: number, center: number): number {
  const n = to - from;
  if (n <= 0) return Number.NaN;
  // first index whose value is >= center
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < center) lo = mid + 1;
    else hi = mid;
  }
  let left = lo - 1;
  let right = lo;
  const take = (): number => {
    const dl = left >= from ? center - (values[left] as number) : Number.POSITIVE_INFINITY;
    const dr = right < to ? (values[right] as number) - center : Number.POSITIVE_INFINITY;
    if (dl <= dr) {
      left -= 1;
      return dl;
    }
    right += 1;
    return dr;
  };
  // the deviations in increasing order: the median is the mean of ranks (n-1)/2 and n/2
  const a = (n - 1) >> 1;
  const b = n >> 1;
  let value = 0;
  for (let k = 0; k < a; k += 1) take();
  value = take();
  if (b === a) return value;
  return (value + take()) / 2;
}

/** where a group sits and how widely it spreads, robustly */
export interface RobustFit {
  median: number;
  /** max(1.4826 MAD, floor), and the upper spread (Q90 - median) / 1.2816 when asked for */
  scale: number;
}

/**
 * The center and scale of sorted values[from, to). The scale is the largest of: 1.4826 MAD (the usual
 * robust estimate of one standard deviation), `floor` (a group whose values never vary does not make tiny
 * differences outliers) and, when `upper` is set, the upper spread (Q90 - median) / 1.2816. The upper spread
 * is for counts whose mass sits on the median but whose right tail is long by nature (claims per member: a
 * MAD of 1 would make every busy member an outlier); it still ignores up to 10% of outliers. It is not for
 * values whose upper tail is the very thing judged (a quantity 20 where 10% of items have 3 is an outlier).
 */
export function robustFit(
  values: Float64Array,
  from: number,
  to: number,
  floor: number,
  upper = false,
): RobustFit {
  const median = medianSorted(values, from, to);
  const mad = madSorted(values, from, to, median);
  const spread = upper ? (quantileSorted(values, from, to, 0.9) - median) / Z90 : 0;
  return fitOf(median, mad, spread, floor);
}

/** a fit from its median, MAD and upper spread (0 when not asked for), the scale at least `floor` */
export const fitOf = (median: number, mad: number, spread: number, floor: number): RobustFit => ({
  median,
  scale: Math.max(MAD_TO_SD * mad, spread, floor),
});

/** robustFit of values in any order (a sorted copy is fitted; the values stay as they are) */
export function robustFitOf(values: ArrayLike<number>, floor: number, upper = false): RobustFit {
  const sorted = Float64Array.from(values).sort();
  return robustFit(sorted, 0, sorted.length, floor, upper);
}

/** a robust z-score: how many robust standard deviations `x` lies above the center */
export const robustZ = (x: number, fit: RobustFit): number => (x - fit.median) / fit.scale;

/** the curve from evidence (a z-score or any evidence value) to a finding's score */
export interface ScoreCurve {
  /** below this, no finding is reported (score 0) */
  min: number;
  /** evidence worth 0.5: an item with such a finding alone is flagged at the default threshold */
  half: number;
  /** how fast the score rises: evidence half + 2 * width scores 0.88, half + 3 * width 0.95 */
  width: number;
}

/** the logistic function: a logit to a probability */
export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** a logistic curve, 0 below `min`: 1 / (1 + exp(-(x - half) / width)) */
export function scoreOf(evidence: number, curve: ScoreCurve): number {
  if (!(evidence >= curve.min)) return 0;
  return 1 / (1 + Math.exp(-(evidence - curve.half) / curve.width));
}

/** independent evidence combined: 1 - prod(1 - s) (the settling's own rule) */
export const combine = (a: number, b: number): number => 1 - (1 - a) * (1 - b);
