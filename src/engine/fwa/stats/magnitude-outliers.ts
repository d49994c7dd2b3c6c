/**
 * Outliers of a magnitude (unit price, quantity) against the same service code (docs/architecture.md
 * section 5): the price and quantity outlier detectors both judge their column this way.
 *
 * For each service code with enough items, the batch's own distribution of ln(value) gives a median and a
 * robust scale (robustFit: 1.4826 MAD, with a floor). An item is an outlier when its robust z, (ln x -
 * median) / scale, is high and its value is well above the median (a minimum ratio): only above the median,
 * since billing less is no abuse. The log scale fits how prices vary (multiplicatively: a list price that
 * differs a little per provider, log-normal noise around it) and makes "3 times the median" mean the same for
 * a 30.00 test and a 3,000.00 scan. Its score follows the detector's ScoreCurve (sensitivity.ts).
 *
 * One pass groups items by code (counting sort), one fits each group's logs (by selection: no sort), one
 * scores every item: no per-item objects; findings only for outliers.
 */
import { flag, supportingFlag } from "../findings.js";
import type { ColumnarBatchView, FindingSink } from "../types.js";
import { itemsByCode } from "./batch.js";
import { largestGroup, type RobustFit, robustZ, type ScoreCurve, scoreOf } from "./robust.js";
import { robustFitSelected } from "./select.js";

/** what PRICE and QUANTITY of sensitivity.ts set */
export interface MagnitudeSensitivity {
  minGroup: number;
  scaleFloor: number;
  minRatio: number;
  curve: ScoreCurve;
  /** its findings support others and do not flag an item alone (Finding.supporting) */
  supporting: boolean;
}

/** the cause of an outlier, from its figures */
export type DescribeOutlier = (
  batch: ColumnarBatchView,
  item: number,
  value: number,
  median: number,
  ratio: number,
  z: number,
  n: number,
) => string;

/** scores every item of every large enough code group by the robust z of ln(value) */
export function magnitudeOutliers(
  batch: ColumnarBatchView,
  sink: FindingSink,
  value: Float64Array,
  sensitivity: MagnitudeSensitivity,
  code: string,
  description: string,
  describe: DescribeOutlier,
): void {
  const groups = itemsByCode(batch);
  const { start, order } = groups;
  const logs = new Float64Array(largestGroup(groups));
  const deviations = new Float64Array(logs.length);
  const codes = start.length - 1;
  for (let service = 0; service < codes; service += 1) {
    const from = start[service] as number;
    const to = start[service + 1] as number;
    if (to - from < sensitivity.minGroup) continue;
    let size = 0;
    for (let r = from; r < to; r += 1) {
      const x = value[order[r] as number] as number;
      if (x > 0) logs[size++] = Math.log(x);
    }
    if (size < sensitivity.minGroup) continue;
    const fit: RobustFit = robustFitSelected(logs, 0, size, sensitivity.scaleFloor, deviations);
    const median = Math.exp(fit.median);
    // the largest log a non-outlier may have: below both gates nothing is reported
    const gate = Math.max(
      fit.median + sensitivity.curve.min * fit.scale,
      fit.median + Math.log(sensitivity.minRatio),
    );
    for (let r = from; r < to; r += 1) {
      const item = order[r] as number;
      const x = value[item] as number;
      if (!(x > 0)) continue;
      const lx = Math.log(x);
      if (lx < gate) continue;
      const z = robustZ(lx, fit);
      const score = scoreOf(z, sensitivity.curve);
      if (score <= 0) continue;
      const ratio = x / median;
      const cause = describe(batch, item, x, median, ratio, z, size);
      const report = sensitivity.supporting ? supportingFlag : flag;
      sink.item(item, report(code, description, cause, score));
    }
  }
}
