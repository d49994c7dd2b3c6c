import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BatchFigure } from "../../bench/batches.js";
import { CORES } from "../../bench/cpu.js";
import type { DatabaseFloor } from "../../bench/database-floor.js";
import type { Figure } from "../../bench/figures.js";
import type { RouteFloor } from "../../bench/floors.js";
import { batchRows, priorAuthRows } from "../../bench/report.js";

const figure = (over: Partial<Figure>): Figure => ({
  scenario: "s",
  requestsPerSecond: 400,
  p50Ms: 4,
  p99Ms: 80,
  maxMs: 90,
  total: 4000,
  failures: 0,
  budget: "",
  ...over,
});
const db: DatabaseFloor = {
  database: "pglite",
  insertP50Ms: 0.5,
  insertP99Ms: 1,
  insertsPerSecond: 2000,
  insertCpuMs: 0.5,
  selectP50Ms: 0.25,
  selectsPerSecond: 4000,
};
const route: RouteFloor = {
  many: figure({ requestsPerSecond: 8000, p99Ms: 5 }),
  one: figure({ p50Ms: 0.2 }),
};
const rowOf = (rows: ReturnType<typeof batchRows>, name: string) => {
  const row = rows.find((r) => r.figure.name === name);
  assert.ok(row, `no row ${name} among ${rows.map((r) => r.figure.name).join("; ")}`);
  return row;
};

describe("bench report", () => {
  it("sets a create's CPU beside the floor transaction's, with the rate it allows and the clients' mean latency", () => {
    const creates = {
      many: figure({ requestsPerSecond: 400, cpuMsPerRequest: 4 }),
      one: figure({ p50Ms: 4, cpuMsPerRequest: 3 }),
    };
    const rows = priorAuthRows({ lightweight: creates, standard: creates }, { route, db }, 20);
    const cpu = rowOf(rows, "lightweight create, 20 clients: CPU per create (server + database)");
    assert.equal(cpu.ratio, 8);
    assert.equal(cpu.floor?.name, "PGlite 1-insert tx, 20 callers: CPU per tx");
    const bound = rowOf(
      rows,
      `lightweight create, 20 clients: the most req/s ${CORES} cores give at that CPU`,
    );
    assert.equal(bound.figure.value, CORES * 250);
    assert.equal(bound.ratio, (CORES * 250) / 2000);
    // 20 clients at 400 req/s wait 50 ms each on average: 12.5x one client's p50 of 4 ms
    const mean = rowOf(rows, "lightweight create, 20 clients: mean latency (clients / req/s)");
    assert.equal(mean.figure.value, 50);
    assert.equal(mean.ratio, 12.5);
    assert.equal(rowOf(rows, "standard create, one client: CPU per create (server + database)").ratio, 6);
  });

  it("leaves the CPU rows out where no CPU was read, keeping the mean latency", () => {
    const creates = { many: figure({}), one: figure({}) };
    const rows = priorAuthRows({ lightweight: creates, standard: creates }, { route, db }, 20);
    assert.equal(rows.filter((r) => r.figure.name.includes("CPU")).length, 0);
    rowOf(rows, "standard create, 20 clients: mean latency (clients / req/s)");
  });

  it("sets the batch's CPU beside the parse floor, and the time its cores could give at best", () => {
    const batch: BatchFigure = {
      scenario: "b",
      claims: 250_000,
      items: 1_000_000,
      gzipMb: 34,
      jsonMb: 353,
      uploadSeconds: 3.3,
      validationMbPerSecond: 106,
      toCompletedSeconds: 6.4,
      floorSeconds: 2,
      floorMbPerSecond: 176,
      uploadCpuSeconds: 6,
      toCompletedCpuSeconds: 10,
      serverIdleRssMb: 300,
      serverPeakRssMb: 600,
      budget: "",
      outcome: "",
    };
    const rows = batchRows(batch);
    assert.equal(rowOf(rows, "batch upload to the 202: CPU (server + database)").ratio, 3);
    assert.equal(rowOf(rows, "batch upload to batch.completed: CPU (server + database)").ratio, 5);
    assert.equal(rowOf(rows, `batch.completed at best on ${CORES} cores: CPU / cores`).ratio, 5 / CORES);
    const without = batchRows({ ...batch, uploadCpuSeconds: undefined, toCompletedCpuSeconds: undefined });
    assert.equal(without.filter((r) => r.figure.name.includes("CPU")).length, 0);
  });
});
