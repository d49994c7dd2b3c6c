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

  it("writes the same texts as the regular expressions they replaced, over many figures", () => {
    // the formats as first written (a lookahead for the thousands, a pattern for trailing zeros)
    const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    const numThen = (value: number, digits: number) => {
      if (!Number.isFinite(value)) return String(value);
      const fixed = value.toFixed(digits);
      const trimmed = fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
      const dot = trimmed.indexOf(".");
      const whole = dot < 0 ? trimmed : trimmed.slice(0, dot);
      const negative = whole.startsWith("-");
      return `${negative ? "-" : ""}${grouped(negative ? whole.slice(1) : whole)}${dot < 0 ? "" : trimmed.slice(dot)}`;
    };
    const countThen = (n: number) => {
      const rounded = Math.round(n);
      return rounded < 0 ? `-${grouped(String(-rounded))}` : grouped(String(rounded));
    };
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const figures = [0, -0, 1, 10, 100, 999, 1000, 1e6, -1234.5, 0.005, 1e21, 3e25, Number.NaN, 100.004];
    for (let i = 0; i < 5_000; i += 1)
      figures.push((random() - 0.3) * 10 ** Math.floor(random() * 12), Math.floor(random() * 10 ** (i % 13)));
    for (const figure of figures) {
      for (const digits of [0, 1, 2, 4])
        assert.equal(num(figure, digits), numThen(figure, digits), `${figure}`);
      assert.equal(count(figure), countThen(figure), `${figure}`);
    }
    assert.equal(count(1e21), "1e+21");
  });
});
