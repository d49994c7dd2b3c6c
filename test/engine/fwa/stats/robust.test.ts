import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../../../src/engine/fwa/stats/random.js";
import {
  groupBy,
  largestGroup,
  madSorted,
  medianSorted,
  orderByDay,
  quantileSorted,
  robustFit,
  scoreOf,
} from "../../../../src/engine/fwa/stats/robust.js";

describe("fwa robust statistics", () => {
  it("medians, quantiles and MAD of sorted values, MAD in O(n) as the naive one", () => {
    const sorted = Float64Array.from([1, 2, 3, 4, 100]);
    assert.equal(medianSorted(sorted, 0, 5), 3);
    assert.equal(medianSorted(sorted, 0, 4), 2.5);
    assert.ok(Math.abs(quantileSorted(sorted, 0, 5, 0.9) - (4 + 0.6 * 96)) < 1e-9);
    assert.equal(madSorted(sorted, 0, 5, 3), 1);
    const random = seededRandom(42);
    for (let trial = 0; trial < 200; trial += 1) {
      const n = 1 + Math.floor(random() * 40);
      const values = Float64Array.from(
        { length: n },
        () => Math.floor(random() * 10) * (random() < 0.1 ? 50 : 1),
      );
      values.sort();
      const median = medianSorted(values, 0, n);
      const naive = values.map((v) => Math.abs(v - median)).sort();
      assert.equal(madSorted(values, 0, n, median), medianSorted(naive, 0, n), `${values}`);
    }
  });

  it("robust fits take the floor when values never vary, the upper spread only when asked", () => {
    const flat = new Float64Array(30).fill(5);
    assert.deepEqual(robustFit(flat, 0, 30, 0.1), { median: 5, scale: 0.1 });
    // 70% at 1, 30% spread above: MAD 0, upper spread (Q90 - 1) / 1.2816
    const skewed = Float64Array.from([...new Array(14).fill(1), 2, 3, 4, 5, 6, 7]).sort();
    assert.equal(robustFit(skewed, 0, 20, 1).scale, 1);
    assert.ok(
      Math.abs(robustFit(skewed, 0, 20, 1, true).scale - (quantileSorted(skewed, 0, 20, 0.9) - 1) / 1.2816) <
        1e-3,
    );
  });

  it("scores by a logistic curve, 0 below its minimum", () => {
    const curve = { min: 3, half: 4, width: 0.6 };
    assert.equal(scoreOf(2.99, curve), 0);
    assert.equal(scoreOf(Number.NaN, curve), 0);
    assert.equal(scoreOf(4, curve), 0.5);
    assert.ok(Math.abs(scoreOf(4 + 1.2, curve) - 0.8808) < 1e-4);
  });

  it("groups indexes by key, keeping a given order inside groups", () => {
    const keys = Int32Array.from([2, 0, 2, -1, 0, 2]);
    const { start, order } = groupBy(keys, 3);
    assert.deepEqual([...start], [0, 2, 2, 5]);
    assert.deepEqual([...order], [1, 4, 0, 2, 5]);
    const days = Int32Array.from([30, 10, 20, 5, 10, 1]);
    const byDay = orderByDay(days, -999);
    assert.deepEqual([...byDay], [5, 3, 1, 4, 2, 0]);
    assert.deepEqual([...groupBy(keys, 3, byDay).order], [1, 4, 5, 2, 0]);
  });

  it("sizes a buffer for one group at a time by the largest group, empty groups and none included", () => {
    assert.equal(largestGroup(groupBy(Int32Array.from([2, 0, 2, -1, 0, 2]), 3)), 3);
    assert.equal(largestGroup(groupBy(Int32Array.from([1, 1, 1, 1]), 4)), 4);
    assert.equal(largestGroup(groupBy(new Int32Array(0), 0)), 0);
  });
});
