/**
 * Unit price and quantity outliers against the same service code (docs/architecture.md section 5).
 *
 * For each service code with enough items, the batch's own distribution of ln(value) gives a median and a
 * robust scale (robustFit: 1.4826 MAD, with a floor). An item is an outlier when its robust z, (ln x -
 * median) / scale, is high and its value is well above the median (a minimum ratio): only above the median,
 * since billing less is no abuse. The log scale fits how prices vary (multiplicatively: a list price that
 * differs a little per provider, log-normal noise around it) and makes "3 times the median" mean the same for
 * a 30.00 test and a 3,000.00 scan. Its score follows the detector's ScoreCurve (sensitivity.ts).
 *
 * One pass groups items by code (counting sort), one sorts each group's logs, one scores every item: no
 * per-item objects; findings only for outliers.
 */
import { textOf } from "./columnar.js";
import { flag } from "./findings.js";
import { itemsByCode } from "./profile.js";
import {
  count,
  money,
  num,
  type RobustFit,
  robustFit,
  robustZ,
  type ScoreCurve,
  scoreOf,
  times,
} from "./robust.js";
import { PRICE, QUANTITY } from "./sensitivity.js";
import type { ColumnarBatchView, Detector, FindingSink } from "./types.js";

export const PRICE_OUTLIER = "FWA-PRICE-01";
export const QUANTITY_OUTLIER = "FWA-QTY-01";

interface MagnitudeRule {
  minGroup: number;
  scaleFloor: number;
  minRatio: number;
  curve: ScoreCurve;
}

type Describe = (
  batch: ColumnarBatchView,
  item: number,
  value: number,
  median: number,
  ratio: number,
  z: number,
  n: number,
) => string;

/** scores every item of every large enough code group by the robust z of ln(value) */
function magnitudeOutliers(
  batch: ColumnarBatchView,
  sink: FindingSink,
  value: Float64Array,
  rule: MagnitudeRule,
  code: string,
  description: string,
  describe: Describe,
): void {
  const { start, order } = itemsByCode(batch);
  const logs = new Float64Array(order.length);
  const codes = start.length - 1;
  for (let service = 0; service < codes; service += 1) {
    const from = start[service] as number;
    const to = start[service + 1] as number;
    if (to - from < rule.minGroup) continue;
    let n = from;
    for (let r = from; r < to; r += 1) {
      const x = value[order[r] as number] as number;
      if (x > 0) logs[n++] = Math.log(x);
    }
    const size = n - from;
    if (size < rule.minGroup) continue;
    logs.subarray(from, n).sort();
    const fit: RobustFit = robustFit(logs, from, n, rule.scaleFloor);
    const median = Math.exp(fit.median);
    // the largest log a non-outlier may have: below both gates nothing is reported
    const gate = Math.max(fit.median + rule.curve.min * fit.scale, fit.median + Math.log(rule.minRatio));
    for (let r = from; r < to; r += 1) {
      const item = order[r] as number;
      const x = value[item] as number;
      if (!(x > 0)) continue;
      const lx = Math.log(x);
      if (lx < gate) continue;
      const z = robustZ(lx, fit);
      const score = scoreOf(z, rule.curve);
      if (score <= 0) continue;
      const ratio = x / median;
      sink.item(item, flag(code, description, describe(batch, item, x, median, ratio, z, size), score));
    }
  }
}

/** FWA-PRICE-01: a unit price far above the batch's median price of the same service code */
export const priceOutliers: Detector = {
  name: "price-outliers",
  run(batch, sink) {
    magnitudeOutliers(
      batch,
      sink,
      batch.unitAmount,
      PRICE,
      PRICE_OUTLIER,
      "Unit price far above the batch's for the service",
      (b, item, x, median, ratio, z, n) =>
        `unit price ${money(x)} is ${times(ratio)} times the batch median ${money(Math.round(median))} ` +
        `for service ${textOf(b, b.serviceCode[item] as number)} over ${count(n)} items (robust z ${num(z, 1)})`,
    );
  },
};

/** FWA-QTY-01: a quantity far above the batch's median quantity of the same service code */
export const quantityOutliers: Detector = {
  name: "quantity-outliers",
  run(batch, sink) {
    magnitudeOutliers(
      batch,
      sink,
      batch.quantity,
      QUANTITY,
      QUANTITY_OUTLIER,
      "Quantity far above the batch's for the service",
      (b, item, x, median, ratio, z, n) =>
        `quantity ${num(x)} is ${times(ratio)} times the batch median ${num(median)} ` +
        `for service ${textOf(b, b.serviceCode[item] as number)} over ${count(n)} items (robust z ${num(z, 1)})`,
    );
  },
};
