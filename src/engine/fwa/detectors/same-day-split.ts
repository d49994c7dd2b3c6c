/**
 * Same-day splits (FWA-SPLIT-01; docs/architecture.md section 5). Several claims of one claim type for one
 * member at one provider on one day, as when one bill is cut into parts. Claims that exactly repeat another
 * of the day are left to the duplicate rule. The score grows with the number of claims and is raised when
 * they share the primary diagnosis and when together they hold no more items than one typical claim of that
 * type (the parts of one bill), both as combined evidence (SPLIT). Every item of every claim of the day is
 * flagged. The member's claims are read in date order (stats/batch.ts, claimsByMember).
 */
import { BATCH_CLAIM_TYPES } from "../columns/claim.js";
import { at, claimIdOf, textOf } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { flag } from "../findings.js";
import { SPLIT } from "../sensitivity.js";
import { claimsByMember } from "../stats/batch.js";
import { count, num } from "../stats/format.js";
import { combine } from "../stats/robust.js";
import type { ColumnarBatchView, Detector, Finding, FindingSink } from "../types.js";

export const SAME_DAY_SPLIT_CODE = "FWA-SPLIT-01";

/** the median number of items per claim, by claim type (0..255) */
function medianItemsByType(batch: ColumnarBatchView): Float64Array {
  const histograms = new Map<number, Map<number, number>>();
  const totals = new Map<number, number>();
  for (let c = 0; c < batch.claimCount; c += 1) {
    const type = at(batch.claimType, c);
    const items = at(batch.firstItem, c + 1) - at(batch.firstItem, c);
    let histogram = histograms.get(type);
    if (histogram === undefined) {
      histogram = new Map();
      histograms.set(type, histogram);
    }
    histogram.set(items, (histogram.get(items) ?? 0) + 1);
    totals.set(type, (totals.get(type) ?? 0) + 1);
  }
  const median = new Float64Array(256);
  for (const [type, histogram] of histograms) {
    const half = (totals.get(type) ?? 0) / 2;
    let seen = 0;
    for (const [items, n] of [...histogram].sort((x, y) => x[0] - y[0])) {
      seen += n;
      if (seen >= half) {
        median[type] = items;
        break;
      }
    }
  }
  return median;
}

/** a claim's items as one comparable text (only for claims sharing a member, provider and day) */
function signature(batch: ColumnarBatchView, c: number): string {
  const parts: string[] = [];
  const end = at(batch.firstItem, c + 1);
  for (let i = at(batch.firstItem, c); i < end; i += 1) {
    parts.push(`${at(batch.serviceCode, i)}:${at(batch.quantity, i)}:${at(batch.unitAmount, i)}`);
  }
  return parts.sort().join("|");
}

export const sameDaySplitDetector: Detector = {
  name: "same-day-split",
  run(batch, sink) {
    const { start, order } = claimsByMember(batch);
    const typical = medianItemsByType(batch);
    const members = start.length - 1;
    const day: number[] = [];
    for (let m = 0; m < members; m += 1) {
      const from = start[m] as number;
      const to = start[m + 1] as number;
      for (let x = from; x < to; ) {
        const date = at(batch.claimDate, order[x] as number);
        let y = x + 1;
        while (y < to && at(batch.claimDate, order[y] as number) === date) y += 1;
        if (y - x >= 2) {
          day.length = 0;
          for (let r = x; r < y; r += 1) day.push(order[r] as number);
          // by provider, claim type, then batch order
          day.sort(
            (p, q) =>
              at(batch.providerId, p) - at(batch.providerId, q) ||
              at(batch.claimType, p) - at(batch.claimType, q) ||
              p - q,
          );
          for (let u = 0; u < day.length; ) {
            const first = day[u] as number;
            let v = u + 1;
            while (
              v < day.length &&
              at(batch.providerId, day[v] as number) === at(batch.providerId, first) &&
              at(batch.claimType, day[v] as number) === at(batch.claimType, first)
            )
              v += 1;
            if (v - u >= 2) report(batch, sink, day.slice(u, v), typical);
            u = v;
          }
        }
        x = y;
      }
    }
  },
};

function report(batch: ColumnarBatchView, sink: FindingSink, claims: number[], typical: Float64Array): void {
  // claims that exactly repeat an earlier one of the day are the duplicate rule's
  const seen = new Set<string>();
  const parts: number[] = [];
  for (const c of claims) {
    const key = signature(batch, c);
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(c);
  }
  if (parts.length < 2) return;
  const firstClaim = parts[0] as number;
  const type = at(batch.claimType, firstClaim);
  let items = 0;
  let sameDiagnosis = true;
  for (const c of parts) {
    items += at(batch.firstItem, c + 1) - at(batch.firstItem, c);
    if (at(batch.primaryDiagnosis, c) !== at(batch.primaryDiagnosis, firstClaim)) sameDiagnosis = false;
  }
  const usual = typical[type] as number;
  const small = items <= SPLIT.smallFactor * usual;
  const byClaims = SPLIT.byClaims;
  let score = byClaims[Math.min(parts.length - 2, byClaims.length - 1)] as number;
  if (sameDiagnosis) score = combine(score, SPLIT.sameDiagnosis);
  if (small) score = combine(score, SPLIT.smallParts);
  const ids = parts.slice(0, 5).map((c) => claimIdOf(batch, c));
  const cause =
    `${count(parts.length)} ${(BATCH_CLAIM_TYPES[type] ?? "").toLowerCase()} claims of this member at provider ` +
    `${textOf(batch, at(batch.providerId, firstClaim))} on ${isoOfDay(at(batch.claimDate, firstClaim))} ` +
    `(${ids.join(", ")}${parts.length > 5 ? ", ..." : ""}) with ${count(items)} items in all; ` +
    `a typical claim of the batch has ${num(usual)}` +
    (sameDiagnosis
      ? `; same primary diagnosis ${textOf(batch, at(batch.primaryDiagnosis, firstClaim))}`
      : "");
  const finding: Finding = flag(SAME_DAY_SPLIT_CODE, "Claims split on one day", cause, score);
  for (const c of parts) sink.claim(c, finding);
}
