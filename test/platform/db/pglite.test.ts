import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openPglite } from "../../../src/platform/db/pglite.js";
import { startTestApp, type TestContext } from "../../helpers.js";

describe("prepared statements of the embedded database", () => {
  it("return exactly what the ordinary path returns, for hostile text too", async () => {
    const db = await openPglite(undefined);
    try {
      await db.exec("CREATE TABLE t (id int PRIMARY KEY, label text, at timestamptz, n bigint)");
      const hostile = ["x'); DROP TABLE t; --", "back\\slash", "E'\\''", "ملف عربي", "%_"];
      for (const [index, label] of hostile.entries()) {
        await db.query("INSERT INTO t VALUES ($1, $2, $3, $4)", [index, label, new Date(0), 2 ** 40]);
      }
      for (let round = 0; round < 3; round++) {
        for (const [index, label] of hostile.entries()) {
          const rows = await db.query<{ id: number; label: string; at: Date; n: number }>(
            "SELECT id, label, at, n FROM t WHERE label = $1",
            [label],
          );
          assert.deepEqual(rows, [{ id: index, label, at: new Date(0), n: 2 ** 40 }]);
        }
      }
      const arrays = await db.query<{ n: number }>(
        "SELECT count(*) AS n FROM t WHERE label = ANY($1::text[])",
        [hostile],
      );
      assert.equal(arrays[0]?.n, hostile.length, "non-scalar parameters take the ordinary path");
    } finally {
      await db.close();
    }
  });
});

describe("the embedded database's cache", () => {
  it("is 32 MB of shared buffers, not PostgreSQL's 128 MB, its new WAL files not zero-filled, with PGlite's own settings kept", async () => {
    const db = await openPglite(undefined);
    try {
      const [buffers] = await db.query<{ shared_buffers: string }>("SHOW shared_buffers");
      assert.equal(buffers?.shared_buffers, "32MB");
      const [zeros] = await db.query<{ wal_init_zero: string }>("SHOW wal_init_zero");
      assert.equal(zeros?.wal_init_zero, "off", "a new WAL file is not written full of zeros first");
      const [workers] = await db.query<{ max_worker_processes: string }>("SHOW max_worker_processes");
      assert.equal(workers?.max_worker_processes, "0");
    } finally {
      await db.close();
    }
  });
});

describe("a snapshot of the embedded database", () => {
  it("starts another with the same tables and rows, and the two go their own ways", async () => {
    const db = await openPglite(undefined);
    const copies: Awaited<ReturnType<typeof openPglite>>[] = [];
    try {
      await db.exec("CREATE TABLE s (id int PRIMARY KEY, label text); CREATE SEQUENCE s_seq");
      await db.query("INSERT INTO s VALUES (1, $1), (2, $2)", ["one", "ملف"]);
      await db.query("SELECT nextval('s_seq')");
      const snapshot = await db.snapshot?.();
      assert.ok(snapshot instanceof Uint8Array && snapshot.length > 0);
      const copy = await openPglite(undefined, snapshot);
      copies.push(copy);
      assert.deepEqual(await copy.query("SELECT id, label FROM s ORDER BY id"), [
        { id: 1, label: "one" },
        { id: 2, label: "ملف" },
      ]);
      assert.deepEqual(await copy.query("SELECT nextval('s_seq') AS n"), [{ n: 2 }]);
      await copy.query("INSERT INTO s VALUES (3, 'copy only')");
      await db.query("DELETE FROM s WHERE id = 1");
      assert.deepEqual(await db.query("SELECT id FROM s ORDER BY id"), [{ id: 2 }]);
      assert.deepEqual(await copy.query("SELECT id FROM s ORDER BY id"), [{ id: 1 }, { id: 2 }, { id: 3 }]);
    } finally {
      for (const copy of copies) await copy.close();
      await db.close();
    }
  });
});

describe("bytes in the embedded database", () => {
  it("go in and come back exactly, the SQL seeing the same bytes", async () => {
    const db = await openPglite(undefined);
    try {
      await db.exec("CREATE TABLE b (id int PRIMARY KEY, data bytea)");
      const values = [
        Buffer.from([0, 1, 0x5c, 0x78, 0x27, 0xff]),
        new Uint8Array(0),
        Buffer.from("\\x41 not hex", "utf8"),
        Buffer.alloc(300_000, 7).subarray(5, 200_005),
      ];
      for (const [id, data] of values.entries()) await db.query("INSERT INTO b VALUES ($1, $2)", [id, data]);
      const rows = await db.query<{ id: number; data: Uint8Array; n: number; hex: string }>(
        "SELECT id, data, length(data) AS n, encode(substr(data, 1, 4), 'hex') AS hex FROM b ORDER BY id",
      );
      for (const [id, data] of values.entries()) {
        const row = rows[id];
        assert.ok(Buffer.from(row?.data ?? []).equals(Buffer.from(data)), `row ${id}`);
        assert.equal(row?.n, data.length);
        assert.equal(row?.hex, Buffer.from(data.subarray(0, 4)).toString("hex"));
      }
      await assert.rejects(db.query("INSERT INTO b VALUES (9, $1)", [[1, 2]]));
    } finally {
      await db.close();
    }
  });
});

describe("names with quotes and backslashes through the API", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("are stored and found as written", async () => {
    const name = "Al-Noor 'Gold' \\ network; DROP TABLE networks; --";
    assert.equal((await ctx.tenant.call("POST", "/network/create", { name })).statusCode, 201);
    const found = (
      await ctx.tenant.call("GET", `/network/find-all?name=${encodeURIComponent("'gold' \\")}`)
    ).json();
    assert.deepEqual(
      found.data.map((n: { name: string }) => n.name),
      [name],
    );
  });
});

describe("the embedded database on disk, in its thread", () => {
  it("keeps every row through growth, concurrent transactions, a failed one and a reopening", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mizan-pglite-"));
    try {
      let db = await openPglite(dir);
      await db.exec("CREATE TABLE grow (id int PRIMARY KEY, pad text)");
      // a relation that grows by many blocks while its size is asked between writes (sequential scans)
      const pad = "x".repeat(400);
      for (let batch = 0; batch < 20; batch++) {
        await db.transaction(async (tx) => {
          await Promise.all(
            Array.from({ length: 100 }, (_, i) =>
              tx.query("INSERT INTO grow VALUES ($1, $2)", [batch * 100 + i, pad]),
            ),
          );
        });
        const [counted] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM grow");
        assert.equal(counted?.n, (batch + 1) * 100);
      }
      // transactions sent at once run one after another: each sees those before it and its own write
      const seen = await Promise.all(
        [1, 2, 3].map((k) =>
          db.transaction(async (tx) => {
            await tx.query("INSERT INTO grow VALUES ($1, 'k')", [100_000 + k]);
            const rows = await tx.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM grow WHERE id > 99999",
            );
            return rows[0]?.n;
          }),
        ),
      );
      assert.deepEqual([...seen].sort(), [1, 2, 3]);
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO grow VALUES ($1, 'rolled back')", [200_000]);
          await tx.query("INSERT INTO grow VALUES ($1, 'duplicate')", [0]);
        }),
        (error: Error & { code?: string }) => error.code === "23505",
      );
      await db.close();
      db = await openPglite(dir);
      const [after] = await db.query<{ n: number; top: number }>(
        "SELECT count(*)::int AS n, max(id) AS top FROM grow",
      );
      assert.deepEqual(after, { n: 2003, top: 100_003 });
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
