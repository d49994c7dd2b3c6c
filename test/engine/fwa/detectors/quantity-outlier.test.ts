import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  QUANTITY_OUTLIER_CODE,
  quantityOutlierDetector,
} from "../../../../src/engine/fwa/detectors/quantity-outlier.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import { isFlag, only, priced, run } from "./fixtures.js";

describe("fwa quantity outliers", () => {
  it("quantities: mostly 1, a quantity of 12 stands out, 3 does not", () => {
    const quantities = (extra: number) =>
      priced(
        30,
        "85025",
        () => 35,
        (k) => (k === 0 ? extra : k % 10 === 1 ? 2 : 1),
      );
    assert.deepEqual(only(run(quantityOutlierDetector, quantities(3))), []);
    const [finding, ...rest] = only(run(quantityOutlierDetector, quantities(12)));
    assert.equal(rest.length, 0);
    isFlag(finding as Finding);
    assert.equal(finding?.code, QUANTITY_OUTLIER_CODE);
    assert.equal(
      finding?.cause,
      "quantity 12 is 12 times the batch median 1 for service 85025 over 30 items (robust z 6.7)",
    );
  });
});
