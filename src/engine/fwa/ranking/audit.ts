/**
 * The yearly audit score: for a batch spanning AUDIT.minMonths months or more, a provider's
 * `risk_score` is a weighted mean of its percentile ranks within the batch (robust to scale and outliers,
 * comparable across terms) of the unsupervised ranking's logit and of a few rich features
 * (stats/provider-features.ts). A month shows too little of a provider for these features; a year shows
 * enough (docs/fwa.md gives the figures). Weights: sensitivity.ts (AUDIT).
 */
import { AUDIT } from "../sensitivity.js";
import type { RichFeature } from "../stats/provider-features.js";
import { RICH_FEATURES } from "../stats/provider-features.js";

/** percentile ranks 0..1 of the values (ties share their mean rank; a single value ranks 0.5) */
export function percentileRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length).fill(0.5);
  if (values.length < 2) return out;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && order[j]?.[0] === order[i]?.[0]) j += 1;
    for (let k = i; k < j; k += 1) out[order[k]?.[1] as number] = (i + j - 1) / 2 / (values.length - 1);
    i = j;
  }
  return out;
}

/** a provider's audit score and, per AUDIT.terms, its percentile rank in the term's risky direction */
export interface AuditScore {
  score: number;
  ranks: number[];
}

/**
 * Each provider's audit score, by row: `rich` its RICH_FEATURES, `ranking` the unsupervised ranking's logit.
 * A term of negative weight ranks the feature's low values as the risky ones.
 */
export function auditScores(rich: readonly (readonly number[])[], ranking: readonly number[]): AuditScore[] {
  const total = AUDIT.terms.reduce((sum, term) => sum + Math.abs(term.weight), 0);
  const scores: AuditScore[] = rich.map(() => ({ score: 0, ranks: [] }));
  for (const { feature, weight } of AUDIT.terms) {
    const f = feature === "ranking" ? -1 : RICH_FEATURES.indexOf(feature as RichFeature);
    const ranks = percentileRanks(f < 0 ? ranking : rich.map((row) => row[f] as number));
    scores.forEach((s, i) => {
      const rank = weight >= 0 ? (ranks[i] as number) : 1 - (ranks[i] as number);
      s.ranks.push(rank);
      s.score += (Math.abs(weight) * rank) / total;
    });
  }
  return scores;
}
