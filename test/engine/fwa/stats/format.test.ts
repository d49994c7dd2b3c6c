import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { count, money, num, percent } from "../../../../src/engine/fwa/stats/format.js";

describe("fwa cause formats", () => {
  it("formats counts, money, numbers and shares for causes", () => {
    assert.equal(count(1214), "1,214");
    assert.equal(count(1_000_000), "1,000,000");
    assert.equal(money(420_000), "4,200.00");
    assert.equal(money(34_000), "340.00");
    assert.equal(money(-150_050), "-1,500.50");
    assert.equal(num(2.5), "2.5");
    assert.equal(num(3), "3");
    assert.equal(num(12345.678, 1), "12,345.7");
    assert.equal(percent(0.823), "82%");
    assert.equal(percent(0.084), "8.4%");
  });
});
