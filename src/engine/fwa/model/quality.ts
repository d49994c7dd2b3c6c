/**
 * How well a score ranks positives above negatives: the figures of the benchmarks and of a model's validation,
 * and the grouped folds that validation scores over.
 */
import { seededRandom } from "../stats/random.js";

/**
 * Average precision (the area under the precision-recall curve, as a step function): the precision at each
 * distinct score from the top, weighed by the share of positives it adds (tied scores enter together).
 * NaN without positives.
 */
export function averagePrecision(positives: ArrayLike<number>, negatives: ArrayLike<number>): number {
  const scored = [
    ...Array.from(positives, (score) => ({ score, positive: true })),
    ...Array.from(negatives, (score) => ({ score, positive: false })),
  ].sort((a, b) => b.score - a.score);
  if (positives.length === 0) return Number.NaN;
  let truePositives = 0;
  let seen = 0;
  let area = 0;
  for (let i = 0; i < scored.length; ) {
    let added = 0;
    const score = scored[i]?.score;
    for (; i < scored.length && scored[i]?.score === score; i += 1) {
      seen += 1;
      if (scored[i]?.positive) added += 1;
    }
    truePositives += added;
    area += (added / positives.length) * (truePositives / seen);
  }
  return area;
}

export function rocAuc(positives: ArrayLike<number>, negatives: ArrayLike<number>): number {
  const pos = Float64Array.from(positives).sort();
  const neg = Float64Array.from(negatives).sort();
  if (pos.length === 0 || neg.length === 0) return Number.NaN;
  // (typed arrays sort NaN last)
  if (Number.isNaN(pos[pos.length - 1]) || Number.isNaN(neg[neg.length - 1]))
    throw new RangeError("rocAuc: a score is NaN");
  let i = 0;
  let j = 0;
  let rank = 0;
  let positiveRanks = 0;
  while (i < pos.length || j < neg.length) {
    // the next tie group: every score equal to the smallest left
    const value = Math.min(
      i < pos.length ? (pos[i] as number) : Infinity,
      j < neg.length ? (neg[j] as number) : Infinity,
    );
    let p = 0;
    let n = 0;
    while (i < pos.length && pos[i] === value) {
      i += 1;
      p += 1;
    }
    while (j < neg.length && neg[j] === value) {
      j += 1;
      n += 1;
    }
    positiveRanks += p * (rank + (p + n + 1) / 2);
    rank += p + n;
  }
  const u = positiveRanks - (pos.length * (pos.length + 1)) / 2;
  return u / (pos.length * neg.length);
}

/**
 * stratified folds by group: a group is positive when any of its examples is; the groups of each class dealt
 * over `folds` folds in a seeded order, so no group is scored by a model that saw its other examples
 */
export function groupedFolds(
  groups: readonly string[],
  labels: readonly boolean[],
  folds: number,
  seed: number,
): Map<string, number> {
  const random = seededRandom(seed);
  const positive = new Map<string, boolean>();
  for (const [i, g] of groups.entries())
    positive.set(g, (positive.get(g) ?? false) || (labels[i] as boolean));
  const foldOf = new Map<string, number>();
  for (const cls of [true, false]) {
    const members = [...positive].flatMap(([g, p]) => (p === cls ? [g] : [])).sort();
    for (let i = members.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [members[i], members[j]] = [members[j] as string, members[i] as string];
    }
    for (const [r, g] of members.entries()) foldOf.set(g, r % folds);
  }
  return foldOf;
}
