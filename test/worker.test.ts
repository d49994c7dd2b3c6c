import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { jobDefinitions } from "../src/jobs.js";
import { startBulkImport } from "../src/modules/policy-bulk/service.js";
import { createTenant } from "../src/modules/tenants/service.js";
import type { Db } from "../src/platform/db/db.js";
import { migrate } from "../src/platform/db/migrate.js";
import { openDatabase } from "../src/platform/db/open.js";
import { createJobRunner } from "../src/platform/jobs/queue.js";
import { silentLog, TEST_DATABASE_URL, testConfig, uniqueName } from "./helpers.js";
import { bulkPatient } from "./modules/policies/fixtures.js";
import { spawnMizan } from "./processes.js";

async function jobStatus(db: Db, jobId: string) {
  const [job] = await db.query<{ status: string; created: number }>(
    `SELECT status, created FROM policy_bulk_jobs WHERE id = $1`,
    [jobId],
  );
  return job;
}

describe("mizan worker", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-worker-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const database = { databaseUrl: TEST_DATABASE_URL, dataDir };

  it("works jobs queued by an API node that only enqueues, and drains on SIGTERM", async () => {
    // an API node with MIZAN_WORKERS=0 accepted an import: the job is queued, nobody works it
    let db = await openDatabase(database);
    await migrate(db);
    const accepted = createJobRunner({
      db,
      databaseUrl: TEST_DATABASE_URL,
      concurrency: 0,
      definitions: jobDefinitions(testConfig()),
      schema: testConfig().jobsSchema,
    });
    await accepted.start(silentLog);
    const { tenant } = await createTenant(
      db,
      { tenantId: undefined, actor: "test", requestId: undefined },
      {
        name: uniqueName("worker"),
        mode: "standard",
      },
    );
    const actor = { tenantId: tenant.id, actor: "test", requestId: "req-worker-1" };
    await db.query(
      `INSERT INTO policy_holders (tenant_id, ph_erp_id, name, insurance_type) VALUES ($1, 'PH1', 'Holder', 'NORMAL')`,
      [tenant.id],
    );
    await db.query(
      `INSERT INTO policies (tenant_id, policy_holder_id, policy_no, start_date, end_date, created_date, status)
       SELECT $1, id, 'POL-W', '2026-01-01', '2026-12-31', '2025-12-01', 'ACTIVE' FROM policy_holders
       WHERE tenant_id = $1`,
      [tenant.id],
    );
    const patients = Array.from({ length: 1_500 }, (_, i) => bulkPatient(`W-${i}`));
    const jobId = await startBulkImport(db, accepted.queue, actor, {
      ph_erp_id: "PH1",
      policy_no: "POL-W",
      patients,
    });
    await accepted.stop();
    assert.equal((await jobStatus(db, jobId))?.status, "queued");
    if (TEST_DATABASE_URL === undefined) await db.close(); // the embedded database has one process at a time

    const {
      child: worker,
      output: printed,
      exited,
    } = spawnMizan("worker", {
      LOG_LEVEL: "info",
      MIZAN_DATA_DIR: dataDir,
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    });
    // On PostgreSQL the suite's other test processes run workers on the same queue, and any of them may
    // take the job (as any worker of a deployment would); on PGlite this worker is the only one.
    const done = async () =>
      TEST_DATABASE_URL === undefined
        ? printed().includes("bulk import completed")
        : (await jobStatus(db, jobId))?.status === "completed";
    try {
      for (let waited = 0; !(await done()); waited += 100) {
        if (waited > 60_000 || worker.exitCode !== null)
          throw new Error(`the job was not done:\n${printed()}`);
        await sleep(100);
      }
      for (let waited = 0; !printed().includes("mizan worker is running"); waited += 100) {
        if (waited > 30_000 || worker.exitCode !== null)
          throw new Error(`the worker did not start:\n${printed()}`);
        await sleep(100);
      }
    } finally {
      worker.kill("SIGTERM");
    }
    assert.equal(await exited, 0, printed());

    if (TEST_DATABASE_URL === undefined) db = await openDatabase(database);
    try {
      assert.deepEqual(await jobStatus(db, jobId), { status: "completed", created: 1_500 });
    } finally {
      await db.close();
    }
  });
});
