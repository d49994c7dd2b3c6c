/**
 * Order statistics of a group in any order, by selection rather than sorting: a detector that reads only a
 * group's median and MAD need not sort it (O(n) on average against O(n log n); the price and quantity
 * outliers sort every service's items otherwise). The figures are those of robust.ts on the sorted group,
 * number for number: the same order statistics, combined by the same arithmetic.
 */
import { fitOf, quantileOfRanks, type RobustFit } from "./robust.js";

/**
 * The k-th smallest (from 0) of values[from, to), which are reordered around it: Hoare's selection with the
 * median of three as pivot. Equal values stop both scans, so a group of ties splits in half.
 */
export function selectKth(values: Float64Array, from: number, to: number, k: number): number {
  const target = from + k;
  let left = from;
  let right = to - 1;
  while (right > left) {
    const a = values[left] as number;
    const b = values[(left + right) >>> 1] as number;
    const c = values[right] as number;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((values[i] as number) < pivot) i += 1;
      while ((values[j] as number) > pivot) j -= 1;
      if (i <= j) {
        const swap = values[i] as number;
        values[i] = values[j] as number;
        values[j] = swap;
        i += 1;
        j -= 1;
      }
    }
    // [left, j] holds no more than the pivot, [i, right] no less, and what lies between equals it
    if (target <= j) right = j;
    else if (target >= i) left = i;
    else break;
  }
  return values[target] as number;
}

/** the smallest of values[from, to) */
function smallestOf(values: Float64Array, from: number, to: number): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = from; i < to; i += 1) if ((values[i] as number) < smallest) smallest = values[i] as number;
  return smallest;
}

/** quantileSorted of values[from, to) in any order (they are reordered) */
export function quantileSelected(values: Float64Array, from: number, to: number, q: number): number {
  let selected = -1;
  return quantileOfRanks(to - from, q, (k) => {
    // what follows the rank just selected is no smaller than it: the next rank is the least there
    if (k === selected + 1 && selected >= 0) return smallestOf(values, from + k, to);
    selected = k;
    return selectKth(values, from, to, k);
  });
}

/**
 * robustFit of values[from, to) in any order, without the upper spread (they are reordered; `deviations`
 * holds at least to - from values, overwritten).
 */
export function robustFitSelected(
  values: Float64Array,
  from: number,
  to: number,
  floor: number,
  deviations: Float64Array,
): RobustFit {
  const n = to - from;
  if (n <= 0) return fitOf(Number.NaN, Number.NaN, 0, floor);
  const median = quantileSelected(values, from, to, 0.5);
  for (let i = 0; i < n; i += 1) {
    const x = values[from + i] as number;
    deviations[i] = x < median ? median - x : x - median;
  }
  // as madSorted: the deviations' ranks (n - 1) / 2 and n / 2, averaged when they differ
  const a = (n - 1) >> 1;
  const b = n >> 1;
  const low = selectKth(deviations, 0, n, a);
  const mad = b === a ? low : (low + smallestOf(deviations, a + 1, n)) / 2;
  return fitOf(median, mad, 0, floor);
}
