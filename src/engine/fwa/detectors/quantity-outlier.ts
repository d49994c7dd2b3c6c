/**
 * Quantity outliers (FWA-QTY-01): a quantity far above the batch's median quantity of the same service code,
 * judged on ln(quantity) by stats/magnitude-outliers.ts with QUANTITY of sensitivity.ts.
 */
import { textOf } from "../columns/columnar.js";
import { QUANTITY } from "../sensitivity.js";
import { count, num, times } from "../stats/format.js";
import { magnitudeOutliers } from "../stats/magnitude-outliers.js";
import type { Detector } from "../types.js";

export const QUANTITY_OUTLIER_CODE = "FWA-QTY-01";

export const quantityOutlierDetector: Detector = {
  name: "quantity-outlier",
  run(batch, sink) {
    magnitudeOutliers(
      batch,
      sink,
      batch.quantity,
      QUANTITY,
      QUANTITY_OUTLIER_CODE,
      "Quantity far above the batch's for the service",
      (b, item, x, median, ratio, z, n) =>
        `quantity ${num(x)} is ${times(ratio)} times the batch median ${num(median)} ` +
        `for service ${textOf(b, b.serviceCode[item] as number)} over ${count(n)} items (robust z ${num(z, 1)})`,
    );
  },
};
