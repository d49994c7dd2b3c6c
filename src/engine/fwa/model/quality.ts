/** How well a score ranks positives above negatives: the figures of the benchmarks and of a model's validation. */

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
