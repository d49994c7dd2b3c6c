import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { recordAudit } from "../../../src/platform/audit/audit.js";
import type { Db } from "../../../src/platform/db/db.js";
import { openTestDb } from "../../helpers.js";

describe("payload columns without statistics", () => {
  let db: Db;
  before(async () => {
    db = await openTestDb();
  });
  after(() => db.close());

  it("keeps no statistics target on any JSON or byte column of the schema", async () => {
    const gathered = await db.query<{ column: string }>(
      `SELECT c.relname || '.' || a.attname AS column
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
         AND a.atttypid IN ('json'::regtype, 'jsonb'::regtype, 'bytea'::regtype)
         AND coalesce(a.attstattarget, -1) <> 0
       ORDER BY 1`,
    );
    // a new payload column is declared SET STATISTICS 0 in its migration (0017 says why)
    assert.deepEqual(gathered, []);
  });

  it("analyzes the audit log's other columns and leaves its details out", async () => {
    for (let i = 0; i < 20; i++) {
      await recordAudit(
        db,
        { tenantId: undefined, actor: "test", requestId: `r${i}` },
        {
          action: "stats.test",
          entityType: "test",
          entityKey: String(i),
          details: { i, text: "x".repeat(200) },
        },
      );
    }
    await db.exec("ANALYZE audit_log");
    const columns = await db.query<{ attname: string }>(
      "SELECT attname FROM pg_stats WHERE schemaname = 'public' AND tablename = 'audit_log' ORDER BY attname",
    );
    const names = columns.map((column) => column.attname);
    assert.ok(names.includes("action"), `analyzed: ${names.join(", ")}`);
    assert.ok(!names.includes("details"), `analyzed: ${names.join(", ")}`);
  });
});
