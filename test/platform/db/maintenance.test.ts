import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "../../../src/platform/db/db.js";
import { type MaintenanceOptions, startEmbeddedMaintenance } from "../../../src/platform/db/maintenance.js";
import { openPglite } from "../../../src/platform/db/pglite.js";

const quiet = { info: () => {}, error: () => {} };

async function rowsEstimate(db: Db, table: string): Promise<number> {
  const rows = await db.query<{ reltuples: number }>(
    "SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = $1",
    [table],
  );
  return rows[0]?.reltuples ?? Number.NaN;
}

/** the table's row estimate once a check has analyzed it again (still `before` after 10 s when none did) */
async function estimateOnceAnalyzed(db: Db, table: string, before = 0): Promise<number> {
  let estimate = before;
  for (let wait = 0; wait < 500 && estimate === before; wait++) {
    await sleep(20);
    estimate = await rowsEstimate(db, table);
  }
  return estimate;
}

/**
 * Single-row writes into `table`, in one transaction. The driver counts a write when it sends the statement:
 * a check that comes between them analyzes (once the session is free) what all of them wrote.
 */
const writeRows = (db: Db, table: string, from: number, count: number) =>
  db.transaction(async (tx) => {
    for (let i = from; i < from + count; i++) await tx.query(`INSERT INTO ${table} VALUES ($1)`, [i]);
  });

/** the number of bounds in the histogram of the table's `id` column: the statistics target plus one */
async function histogramBounds(db: Db, table: string): Promise<number | undefined> {
  const [stats] = await db.query<{ bounds: number }>(
    "SELECT array_length(histogram_bounds::text::int[], 1) AS bounds FROM pg_stats WHERE tablename = $1",
    [table],
  );
  return stats?.bounds;
}

async function tableBytes(db: Db, table: string): Promise<number> {
  const [row] = await db.query<{ bytes: number }>("SELECT pg_relation_size($1::regclass) AS bytes", [table]);
  return row?.bytes ?? Number.NaN;
}

/** `body` run while the maintenance runs with `options`, stopped after it */
async function whileMaintaining(db: Db, options: MaintenanceOptions, body: () => Promise<void>) {
  const stop = await startEmbeddedMaintenance(db, quiet, options);
  try {
    await body();
  } finally {
    await stop();
  }
}

describe("the embedded database's stand-in for autovacuum", () => {
  let db: Db;
  before(async () => {
    db = await openPglite(undefined);
    await db.exec(
      "CREATE TABLE busy (id int); CREATE TABLE quiet (id int); CREATE TABLE large (id int); CREATE TABLE swept (id int); CREATE TABLE young (id int)",
    );
  });
  after(() => db.close());

  it("analyzes a table once its writes pass the threshold, and only the tables written", async () => {
    await whileMaintaining(
      db,
      { checkEveryMs: 20, thresholdCheckEveryMs: 20, analyzeBaseWrites: 10 },
      async () => {
        assert.equal(await rowsEstimate(db, "busy"), 0, "analyzed at start, while empty");
        for (let i = 0; i < 5; i++) await db.query("INSERT INTO busy VALUES ($1)", [i]);
        await db.exec("INSERT INTO quiet SELECT generate_series(1, 500)");
        await sleep(150);
        assert.equal(await rowsEstimate(db, "busy"), 0, "5 writes are below 10 + a tenth of 0 rows");
        // in one transaction, so that no check analyzes the table between the 11th write and the 12th
        await writeRows(db, "busy", 5, 7);
        const estimate = await estimateOnceAnalyzed(db, "busy");
        assert.equal(estimate, 12, "12 writes pass the threshold: ANALYZE counted the rows");
        assert.equal(await rowsEstimate(db, "quiet"), 0, "one write of 500 rows is below the threshold");
      },
    );
  });

  it("analyzes a table that doubled since its last ANALYZE at the next check, between the threshold's", async () => {
    await whileMaintaining(
      db,
      { checkEveryMs: 20, thresholdCheckEveryMs: 600_000, analyzeBaseWrites: 1 },
      async () => {
        await db.exec("INSERT INTO young SELECT generate_series(1, 30)");
        assert.equal(await estimateOnceAnalyzed(db, "young"), 30, "one write on a table analyzed empty");
        await writeRows(db, "young", 30, 5);
        await sleep(200);
        // 5 writes pass the threshold (1 + a tenth of 30 rows), whose check is minutes away
        assert.equal(await rowsEstimate(db, "young"), 30, "5 writes do not double 30 rows");
        await writeRows(db, "young", 35, 25);
        assert.equal(await estimateOnceAnalyzed(db, "young", 30), 60, "30 writes double 30 rows");
      },
    );
  });

  it("re-analyzes from a sample of 3,000 rows, and leaves the session's statistics target as it was", async () => {
    await whileMaintaining(db, { checkEveryMs: 20, analyzeBaseWrites: 0 }, async () => {
      await db.exec("INSERT INTO large SELECT generate_series(1, 10000)");
      const estimate = await estimateOnceAnalyzed(db, "large");
      assert.equal(estimate, 10_000, "the written table was analyzed");
      // a statistics target of 10: ten histogram buckets, where the default's 100 gives 101 bounds
      assert.equal(await histogramBounds(db, "large"), 11);
      const [setting] = await db.query<{ default_statistics_target: string }>(
        "SHOW default_statistics_target",
      );
      assert.equal(setting?.default_statistics_target, "100");
    });
  });

  it("vacuums in its hourly pass without analyzing again from the default sample", async () => {
    await whileMaintaining(db, { checkEveryMs: 20, analyzeBaseWrites: 0, vacuumEveryMs: 300 }, async () => {
      await db.exec("INSERT INTO swept SELECT generate_series(1, 10000)");
      assert.equal(await estimateOnceAnalyzed(db, "swept"), 10_000);
      const full = await tableBytes(db, "swept");
      // the rows at the table's end: a VACUUM gives their empty pages back, which nothing else does
      await db.exec("DELETE FROM swept WHERE id > 2000");
      let bytes = full;
      for (let wait = 0; wait < 500 && bytes > full / 2; wait++) {
        await sleep(20);
        bytes = await tableBytes(db, "swept");
      }
      assert.ok(bytes <= full / 2, `vacuumed: ${bytes} bytes of ${full} left`);
      // a database-wide VACUUM (ANALYZE) would have sampled the default's 30,000 rows: 101 bounds
      assert.equal(await histogramBounds(db, "swept"), 11, "statistics still from the small sample");
    });
  });

  it("stops only once the check under way is over, so that the database can close", async () => {
    const own = await openPglite(undefined);
    const errors: unknown[] = [];
    const log = { info: () => {}, error: (details: object) => errors.push(details) };
    const stop = await startEmbeddedMaintenance(own, log, { checkEveryMs: 5, vacuumEveryMs: 0 });
    await own.exec("CREATE TABLE written (id int); INSERT INTO written SELECT generate_series(1, 1000)");
    // the one session held by a transaction: the next check's VACUUM pass waits for it, under way
    const holding = own.transaction(async (tx) => {
      await tx.query("SELECT 1");
      await sleep(100);
    });
    await sleep(50);
    const stopping = stop();
    await holding;
    await stopping;
    await own.close();
    await sleep(50);
    assert.deepEqual(errors, []);
  });
});
