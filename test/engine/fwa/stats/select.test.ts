import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { quantileSorted, robustFit } from "../../../../src/engine/fwa/stats/robust.js";
import { quantileSelected, robustFitSelected, selectKth } from "../../../../src/engine/fwa/stats/select.js";

/** groups of every shape the detectors meet: ties (quantities), log prices, spread values, one value */
function* groups(): Generator<Float64Array> {
  let seed = 11;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const shapes = [
    () => Math.floor(random() * 3),
    () => Math.log(1 + Math.floor(random() * 50_000) / 100),
    () => random() * 10 - 5,
    () => 7,
  ];
  for (let g = 0; g < 20_000; g += 1) {
    const n = 1 + Math.floor(random() * (g % 10 === 0 ? 2_000 : 40));
    const value = shapes[g % shapes.length] as () => number;
    yield Float64Array.from({ length: n }, value);
  }
}

describe("order statistics by selection", () => {
  it("finds the k-th smallest with nothing larger before it and nothing smaller after", () => {
    for (const group of groups()) {
      const k = Math.floor(group.length / 3);
      const kth = selectKth(group, 0, group.length, k);
      assert.equal(kth, Float64Array.from(group).sort()[k]);
      assert.ok(group.subarray(0, k).every((x) => x <= kth) && group.subarray(k).every((x) => x >= kth));
    }
  });

  it("gives the quantiles and the robust fit of the sorted group, number for number", () => {
    let compared = 0;
    for (const group of groups()) {
      const sorted = Float64Array.from(group).sort();
      for (const q of [0, 0.25, 0.5, 0.75, 0.9, 1])
        assert.ok(
          Object.is(
            quantileSelected(Float64Array.from(group), 0, group.length, q),
            quantileSorted(sorted, 0, sorted.length, q),
          ),
        );
      const expected = robustFit(sorted, 0, sorted.length, 0.05);
      const fit = robustFitSelected(group, 0, group.length, 0.05, new Float64Array(group.length));
      assert.ok(
        Object.is(fit.median, expected.median) && Object.is(fit.scale, expected.scale),
        `${group.length} values`,
      );
      compared += 1;
    }
    assert.equal(compared, 20_000);
  });

  it("fits a group in the middle of a buffer without reading beyond it", () => {
    const buffer = Float64Array.from([100, 100, 3, 1, 2, 5, 4, -100]);
    const fit = robustFitSelected(buffer, 2, 7, 0, new Float64Array(5));
    assert.deepEqual(fit, robustFit(Float64Array.from([1, 2, 3, 4, 5]), 0, 5, 0));
    assert.deepEqual([buffer[0], buffer[1], buffer[7]], [100, 100, -100]);
  });
});
