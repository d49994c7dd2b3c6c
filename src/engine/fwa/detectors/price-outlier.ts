/**
 * Unit price outliers (FWA-PRICE-01): a unit price far above the batch's median price of the same service
 * code, judged on ln(price) by stats/magnitude-outliers.ts with PRICE of sensitivity.ts.
 */
import { textOf } from "../columns/columnar.js";
import { PRICE } from "../sensitivity.js";
import { count, money, num, times } from "../stats/format.js";
import { magnitudeOutliers } from "../stats/magnitude-outliers.js";
import type { Detector } from "../types.js";

export const PRICE_OUTLIER_CODE = "FWA-PRICE-01";

export const priceOutlierDetector: Detector = {
  name: "price-outlier",
  run(batch, sink) {
    magnitudeOutliers(
      batch,
      sink,
      batch.unitAmount,
      PRICE,
      PRICE_OUTLIER_CODE,
      "Unit price far above the batch's for the service",
      (b, item, x, median, ratio, z, n) =>
        `unit price ${money(x)} is ${times(ratio)} times the batch median ${money(Math.round(median))} ` +
        `for service ${textOf(b, b.serviceCode[item] as number)} over ${count(n)} items (robust z ${num(z, 1)})`,
    );
  },
};
