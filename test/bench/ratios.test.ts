import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  compare,
  formatGoal,
  formatNumber,
  formatRatio,
  markdownTable,
  meets,
  percentile,
  ratioOf,
  ratioSummary,
  ratioTable,
} from "../../bench/ratios.js";

const ms = (name: string, value: number) => ({ name, value, unit: "ms" });

describe("bench ratios", () => {
  it("takes the nearest rank at or above a percentile, NaN of nothing", () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    assert.equal(percentile(sorted, 50), 6);
    assert.equal(percentile(sorted, 99), 10);
    assert.equal(percentile(sorted, 0), 1);
    assert.equal(percentile([4], 99), 4);
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  it("has no ratio without a positive floor", () => {
    assert.equal(ratioOf(3, 0.5), 6);
    assert.equal(ratioOf(3, undefined), undefined);
    assert.equal(ratioOf(3, 0), undefined);
    assert.equal(ratioOf(3, -1), undefined);
    assert.equal(ratioOf(Number.NaN, 1), undefined);
  });

  it("checks a ratio against at most, at least, or both", () => {
    assert.equal(meets(4, { atMost: 4 }), true);
    assert.equal(meets(4.01, { atMost: 4 }), false);
    assert.equal(meets(0.2, { atLeast: 0.2 }), true);
    assert.equal(meets(0.19, { atLeast: 0.2 }), false);
    assert.equal(meets(2, { atLeast: 1, atMost: 3 }), true);
    assert.equal(meets(undefined, { atMost: 4 }), undefined);
    assert.equal(meets(2, undefined), undefined);
  });

  it("compares a figure with its floor, its goal and its budget", () => {
    const row = compare(ms("create p50", 2.4), ms("tx p50", 0.3), {
      goal: { atMost: 4 },
      budget: "p50 <= 3 ms",
    });
    assert.ok(Math.abs((row.ratio as number) - 8) < 1e-9);
    assert.equal(row.met, false);
    assert.equal(row.budget, "p50 <= 3 ms");
    const alone = compare(ms("peak RSS", 900), undefined);
    assert.equal(alone.ratio, undefined);
    assert.equal(alone.met, undefined);
  });

  it("writes numbers and ratios to the precision they are read at", () => {
    assert.equal(formatNumber(0.123), "0.12");
    assert.equal(formatNumber(12.34), "12.3");
    assert.equal(formatNumber(12345.6), "12,346");
    assert.equal(formatNumber(Number.NaN), "n/a");
    assert.equal(formatNumber(-0.001), "0.00");
    assert.equal(formatRatio(31.4), "31x");
    assert.equal(formatRatio(7.46), "7.5x");
    assert.equal(formatRatio(0.0412), "0.041x");
    assert.equal(formatRatio(undefined), "");
    assert.equal(formatGoal({ atMost: 4 }, true), "<= 4x: met");
    assert.equal(formatGoal({ atLeast: 0.2 }, false), ">= 0.2x: **not met**");
    assert.equal(formatGoal(undefined, undefined), "");
  });

  it("pads a Markdown table's columns and escapes pipes", () => {
    const table = markdownTable(["a", "long header"], [["x|y", "1"]]);
    assert.deepEqual(table.split("\n"), [
      "| a    | long header |",
      "| ---- | ----------- |",
      "| x\\|y | 1           |",
    ]);
  });

  it("prints a row per comparison and summarises it as JSON", () => {
    const rows = [compare(ms("create p50", 1.5), ms("tx p50", 0.5), { goal: { atMost: 4 } })];
    const lines = ratioTable(rows).split("\n");
    assert.equal(lines.length, 3);
    assert.match(
      lines[2] as string,
      /\| create p50 +\| 1\.50 ms +\| tx p50 +\| 0\.50 ms +\| 3\.0x +\| <= 4x: met +\| +\|/,
    );
    assert.deepEqual(ratioSummary(rows), [
      {
        figure: "create p50",
        value: 1.5,
        unit: "ms",
        floor: "tx p50",
        floorValue: 0.5,
        floorUnit: "ms",
        ratio: 3,
        goal: { atMost: 4 },
        met: true,
        budget: null,
      },
    ]);
  });
});
