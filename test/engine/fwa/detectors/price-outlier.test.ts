import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  PRICE_OUTLIER_CODE,
  priceOutlierDetector,
} from "../../../../src/engine/fwa/detectors/price-outlier.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import { claimsWith, isFlag, only, priced, run } from "./fixtures.js";

describe("fwa price outliers", () => {
  // 28 prices 337..343 around 340.00 for 83036
  const clean = () => priced(28, "83036", (k) => 337 + (k % 7));

  it("a clean group: no finding; a price 12 times the median: a finding with its figures", () => {
    assert.deepEqual(only(run(priceOutlierDetector, clean())), []);
    const result = run(priceOutlierDetector, [
      ...clean(),
      ...priced(1, "83036", () => 4200).map((c) => ({ ...c, claim_id: "C-X" })),
    ]);
    const findings = only(result);
    assert.equal(findings.length, 1);
    const finding = findings[0] as Finding;
    isFlag(finding);
    assert.equal(finding.code, PRICE_OUTLIER_CODE);
    assert.match(
      finding.cause,
      /^unit price 4,200\.00 is 12\.4 times the batch median 340\.00 for service 83036 over 29 items \(robust z \d+\.\d\)$/,
    );
    assert.ok(finding.score > 0.99);
    assert.deepEqual(claimsWith(result, PRICE_OUTLIER_CODE), ["C-X"]);
  });

  it("prices below the median, a tiny group, a code whose prices never vary", () => {
    const cheap = priced(1, "83036", () => 20);
    assert.deepEqual(only(run(priceOutlierDetector, [...clean(), ...cheap])), []);
    // 19 items: too few to judge
    assert.deepEqual(
      only(
        run(
          priceOutlierDetector,
          priced(19, "X1", (k) => (k === 0 ? 5000 : 100)),
        ),
      ),
      [],
    );
    // every price 100.00 (MAD 0): 105.00 is no outlier (the floor), 160.00 is (ratio 1.6, z 4.7)
    const fixed = (price: number) => priced(25, "FIX", (k) => (k === 0 ? price : 100));
    assert.deepEqual(only(run(priceOutlierDetector, fixed(105))), []);
    const [finding] = only(run(priceOutlierDetector, fixed(160)));
    assert.equal(
      finding?.cause,
      "unit price 160.00 is 1.6 times the batch median 100.00 for service FIX over 25 items (robust z 4.7)",
    );
    assert.ok((finding?.score as number) > 0.7 && (finding?.score as number) < 0.85);
  });
});
