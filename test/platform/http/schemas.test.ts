import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hasAtMostTwoDecimals } from "../../../src/platform/http/schemas.js";

/** the rule as the spec states it: the amount's decimal text has at most two decimals */
const byText = (value: number) => /^\d+(\.\d{1,2})?$/.test(String(value));

describe("money's two decimals", () => {
  it("agrees with the amount's decimal text at every magnitude, without building it", () => {
    const cases = [0, 0.01, 0.1, 0.29, 0.1 + 0.2, 1.005, 2.675, 19.99, 1e12 - 0.01, 999_999_999_999.99];
    cases.push(9_999_999_999_999.99, 1e13, 1e13 + 0.01, 1e15 + 0.5, 1e21, 1e300, 5e-324, -0.5, -3);
    for (let k = 0; k < 200_000; k += 1) cases.push(k / 100, k / 1000, (k * 7_919_993) / 100);
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (let n = 0; n < 200_000; n += 1) {
      const amount = random() * 10 ** Math.floor(random() * 16);
      cases.push(Number(amount.toFixed(n % 5)), amount);
    }
    const differing = cases.filter((value) => hasAtMostTwoDecimals(value) !== byText(value));
    assert.deepEqual(differing, []);
    assert.equal(hasAtMostTwoDecimals(0.29), true);
    assert.equal(hasAtMostTwoDecimals(1.005), false);
    assert.equal(hasAtMostTwoDecimals(999_999_999_999.99), true);
  });
});
