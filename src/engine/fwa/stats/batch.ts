/**
 * The batch's own groupings and statistics that several statistical detectors need: claims by member (in date
 * order) and by provider, items by service code, how common each service is, diagnosis categories and the
 * median line amount of each service. Each is computed once per batch view, on first use, and kept in a
 * WeakMap keyed by the view (released with it). All typed arrays indexed by interned ids or by index.
 */

import { type ColumnarBatchView, NO_DATE } from "../types.js";
import { type Groups, groupBy, largestGroup, orderByDay } from "./robust.js";
import { quantileSelected } from "./select.js";

const cache = new WeakMap<ColumnarBatchView, Map<string, unknown>>();

function memo<T>(batch: ColumnarBatchView, key: string, compute: () => T): T {
  let entries = cache.get(batch);
  if (entries === undefined) {
    entries = new Map();
    cache.set(batch, entries);
  }
  if (entries.has(key)) return entries.get(key) as T;
  const value = compute();
  entries.set(key, value);
  return value;
}

/** claims grouped by member id, each member's claims by claim date (then batch order) */
export const claimsByMember = (batch: ColumnarBatchView): Groups =>
  memo(batch, "claimsByMember", () =>
    groupBy(batch.memberId, batch.strings.length, orderByDay(batch.claimDate, NO_DATE)),
  );

/** claims grouped by provider id, in batch order */
export const claimsByProvider = (batch: ColumnarBatchView): Groups =>
  memo(batch, "claimsByProvider", () => groupBy(batch.providerId, batch.strings.length));

/** items grouped by service code id, in batch order */
export const itemsByCode = (batch: ColumnarBatchView): Groups =>
  memo(batch, "itemsByCode", () => groupBy(batch.serviceCode, batch.strings.length));

/** by service code id: the share of the batch's claims that carry the code at least once (0 when none) */
export const serviceClaimShare = (batch: ColumnarBatchView): Float64Array =>
  memo(batch, "serviceClaimShare", () => {
    const claims = new Float64Array(batch.strings.length);
    const last = new Int32Array(batch.strings.length).fill(-1);
    for (let i = 0; i < batch.itemCount; i += 1) {
      const code = batch.serviceCode[i] as number;
      const claim = batch.itemClaim[i] as number;
      if (last[code] === claim) continue;
      last[code] = claim;
      claims[code] = (claims[code] as number) + 1;
    }
    const total = Math.max(1, batch.claimCount);
    for (let k = 0; k < claims.length; k += 1) claims[k] = (claims[k] as number) / total;
    return claims;
  });

/** a diagnosis category: the ICD-10 category (first three characters of the normalized code) */
export interface DiagnosisCategories {
  /** by diagnosis string id: its category's index in `texts`, -1 for ids that are no diagnosis */
  of: Int32Array;
  texts: string[];
}

export const diagnosisCategories = (batch: ColumnarBatchView): DiagnosisCategories =>
  memo(batch, "diagnosisCategories", () => {
    const of = new Int32Array(batch.strings.length).fill(-1);
    const texts: string[] = [];
    const index = new Map<string, number>();
    const see = (id: number): void => {
      if (of[id] !== -1) return;
      const category = (batch.strings[id] ?? "").slice(0, 3);
      let k = index.get(category);
      if (k === undefined) {
        k = texts.length;
        texts.push(category);
        index.set(category, k);
      }
      of[id] = k;
    };
    for (let c = 0; c < batch.claimCount; c += 1) see(batch.primaryDiagnosis[c] as number);
    return { of, texts };
  });

/** by item: ln(quantity x unit amount), NaN when the line is not positive */
export const lineLogs = (batch: ColumnarBatchView): Float64Array =>
  memo(batch, "lineLogs", () => {
    const logs = new Float64Array(batch.itemCount);
    for (let i = 0; i < batch.itemCount; i += 1) {
      const line = (batch.quantity[i] as number) * (batch.unitAmount[i] as number);
      logs[i] = line > 0 ? Math.log(line) : Number.NaN;
    }
    return logs;
  });

/** by service code id: the median of ln(quantity x unit amount) over its items with a positive amount */
export const serviceLineMedian = (batch: ColumnarBatchView): Float64Array =>
  memo(batch, "serviceLineMedian", () => {
    const groups = itemsByCode(batch);
    const { start, order } = groups;
    const logs = lineLogs(batch);
    const median = new Float64Array(batch.strings.length).fill(Number.NaN);
    const values = new Float64Array(largestGroup(groups));
    const codes = start.length - 1;
    for (let code = 0; code < codes; code += 1) {
      const from = start[code] as number;
      const to = start[code + 1] as number;
      let n = 0;
      for (let r = from; r < to; r += 1) {
        const ln = logs[order[r] as number] as number;
        if (!Number.isNaN(ln)) values[n++] = ln;
      }
      if (n === 0) continue;
      median[code] = quantileSelected(values, 0, n, 0.5);
    }
    return median;
  });
