import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { textOf } from "../../../../src/engine/fwa/columns/columnar.js";
import { batchAnalysisJob } from "../../../../src/modules/claims-batch/job.js";
import { batchRepo, spoolPartsRepo } from "../../../../src/modules/claims-batch/repo.js";
import { databaseSpool } from "../../../../src/modules/claims-batch/spool/database-spool.js";
import { CHUNK_BYTES } from "../../../../src/modules/claims-batch/upload/claim-chunk.js";
import { silentLog, startTestApp, type TestContext, testConfig } from "../../../helpers.js";
import { batchBody, batchClaim, claimsCall, tokenFor, uploadBatch, waitForBatch } from "../fixtures.js";

describe("the database spool", () => {
  // the node that takes uploads and the worker that analyses them see different directories
  const uploadDir = mkdtempSync(join(tmpdir(), "mizan-spool-upload-"));
  const workerDir = mkdtempSync(join(tmpdir(), "mizan-spool-worker-"));
  let ctx: TestContext;
  let token: string;
  before(async () => {
    ctx = await startTestApp({ MIZAN_BATCH_SPOOL: "database", MIZAN_SPOOL_DIR: uploadDir }, { workers: 0 });
    token = await tokenFor(ctx.app, ctx.tenant);
  });
  after(async () => {
    await ctx.close();
    for (const dir of [uploadDir, workerDir]) rmSync(dir, { recursive: true, force: true });
  });

  const worker = batchAnalysisJob(
    testConfig({ MIZAN_BATCH_SPOOL: "database", MIZAN_SPOOL_DIR: workerDir }).batches,
  );
  const jobContext = (signal = new AbortController().signal) => ({
    db: ctx.db,
    jobs: ctx.jobs,
    log: silentLog,
    attempt: 0,
    signal,
  });

  const partsOf = (batchId: string) =>
    ctx.db.query<{ part: number; claims: number; bytes: number }>(
      "SELECT part, claims, bytes FROM claims_batch_spool_parts WHERE batch_id = $1 ORDER BY part",
      [batchId],
    );

  async function submit(claims: unknown[]) {
    const accepted = await uploadBatch(ctx.app, token, batchBody(claims));
    assert.equal(accepted.statusCode, 202, accepted.body);
    return accepted.json().batch_id as string;
  }

  it("writes a batch larger than a part in bounded parts, which another worker analyses and then removes", async () => {
    const claims = Array.from({ length: 10_000 }, (_, n) => batchClaim(n, {}, 4));
    assert.ok(JSON.stringify(claims).length > 2 * CHUNK_BYTES, "the batch spans three parts");
    const batchId = await submit(claims);

    const parts = await partsOf(batchId);
    assert.deepEqual(
      parts.map((row) => row.part),
      [1, 2, 3],
    );
    for (const row of parts) assert.ok(row.bytes <= CHUNK_BYTES, `part ${row.part}: ${row.bytes} bytes`);
    assert.equal(
      parts.reduce((sum, row) => sum + row.claims, 0),
      10_000,
    );
    const batch = await batchRepo.findForWorker(ctx.db, batchId);
    assert.deepEqual([batch?.spool_path, batch?.spool_parts], [null, 3]);
    assert.deepEqual(readdirSync(uploadDir), [], "no spool file on the node that took the upload");

    await worker.handle({ batchId }, jobContext());
    const status = await waitForBatch(ctx.app, token, batchId);
    assert.deepEqual([status.status, status.processed_claims], ["completed", 10_000]);
    const last = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}/results?page=10&per_page=1000`,
    });
    assert.deepEqual(
      last.json().claims.map((claim: { claim_id: string }) => claim.claim_id),
      claims.slice(9_000).map((claim) => claim.claim_id),
      "every claim, in submission order",
    );
    assert.deepEqual(await partsOf(batchId), [], "the parts are gone once the batch completed");
    assert.deepEqual(readdirSync(workerDir), []);
  });

  it("reads many parts in their order, fetching ahead, and stops visibly at a missing one", async () => {
    const spool = databaseSpool(ctx.db);
    const batchId = randomUUID();
    const writer = await spool.open(batchId);
    const members = Array.from({ length: 11 }, (_, n) => `reader-${n + 1}`);
    for (const [n, member] of members.entries()) {
      // a part in the JSON lines the spool once held: one claim, named by its member
      writer.append(Buffer.from(`${JSON.stringify(batchClaim(n, { member_id: member }))}\n`), 1);
      await writer.ready();
    }
    const place = await writer.finish();
    const batch = { id: batchId, ...place };
    const membersRead = async () => {
      const read: string[] = [];
      for await (const part of spool.read(batch)) read.push(textOf(part, part.memberId[0] as number));
      return read;
    };
    assert.deepEqual(await membersRead(), members);

    await ctx.db.query("DELETE FROM claims_batch_spool_parts WHERE batch_id = $1 AND part = 7", [batchId]);
    const read: string[] = [];
    await assert.rejects(async () => {
      for await (const part of spool.read(batch)) read.push(textOf(part, part.memberId[0] as number));
    }, /part 7 of the batch's 11 spool parts is missing/);
    assert.deepEqual(read, members.slice(0, 6), "the parts before the missing one, in order");
    await spool.remove(batch);
  });

  it("restarts a batch whose worker stopped mid-way from its parts, and completes it once", async () => {
    const batchId = await submit(Array.from({ length: 200 }, (_, n) => batchClaim(n)));
    const stopped = new AbortController();
    stopped.abort();
    await assert.rejects(worker.handle({ batchId }, jobContext(stopped.signal)), /worker stopped/);
    assert.equal((await partsOf(batchId)).length, 1, "the parts stay for the next attempt");
    // a worker configured for the file spool reads the batch where its upload put it
    await batchAnalysisJob(testConfig({ MIZAN_SPOOL_DIR: workerDir }).batches).handle(
      { batchId },
      jobContext(),
    );
    const status = await waitForBatch(ctx.app, token, batchId);
    assert.deepEqual([status.status, status.processed_claims], ["completed", 200]);
    assert.deepEqual(await partsOf(batchId), []);
  });

  it("analyses parts written as JSON lines, as uploads were spooled before column parts", async () => {
    const claims = Array.from({ length: 300 }, (_, n) => batchClaim(n));
    const batchId = await submit(claims);
    const lines = `${claims.map((claim) => JSON.stringify(claim)).join("\n")}\n`;
    await ctx.db.query("UPDATE claims_batch_spool_parts SET data = $2 WHERE batch_id = $1", [
      batchId,
      gzipSync(lines),
    ]);
    await worker.handle({ batchId }, jobContext());
    const status = await waitForBatch(ctx.app, token, batchId);
    assert.deepEqual([status.status, status.processed_claims], ["completed", 300]);
    const results = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}/results?per_page=1000`,
    });
    assert.deepEqual(
      results.json().claims.map((claim: { claim_id: string }) => claim.claim_id),
      claims.map((claim) => claim.claim_id),
    );
  });

  it("removes the parts of a batch that failed, and fails a batch whose parts are missing visibly", async () => {
    const corrupted = await submit([batchClaim(1), batchClaim(2)]);
    await ctx.db.query("UPDATE claims_batch_spool_parts SET data = $2 WHERE batch_id = $1", [
      corrupted,
      gzipSync("{not json\n"),
    ]);
    const missing = await submit([batchClaim(1)]);
    await ctx.db.query("DELETE FROM claims_batch_spool_parts WHERE batch_id = $1", [missing]);
    for (const [batchId, cause] of [
      [corrupted, /JSON/],
      [missing, /spool is missing: 0 of its 1 parts/],
    ] as const) {
      const error = await worker.handle({ batchId }, jobContext()).catch((e: unknown) => e);
      assert.match(String(error), cause);
      await worker.giveUp({ batchId }, error, jobContext());
      const status = await waitForBatch(ctx.app, token, batchId);
      assert.deepEqual([status.status, status.error_code], ["failed", "PROCESSING_ERROR"]);
      assert.match(status.error, /^The analysis failed; reference [0-9a-f-]{36}$/);
      assert.deepEqual(await partsOf(batchId), []);
    }
  });

  it("keeps nothing of a refused upload", async () => {
    const body = batchBody([batchClaim(1), batchClaim(2, { claim_type: "NOT-A-TYPE" })]);
    const refused = await uploadBatch(ctx.app, token, body);
    assert.equal(refused.statusCode, 400, refused.body);
    const [row] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM claims_batches WHERE tenant_id = $1 AND batch_reference_id = $2",
      [ctx.tenant.id, body.batch_reference_id],
    );
    assert.ok(row !== undefined);
    assert.deepEqual(await partsOf(row.id), []);
  });

  it("purges the parts left behind: a day-old upload that never became a batch, a finished batch's", async () => {
    const waiting = await submit([batchClaim(1)]);
    const finished = await submit([batchClaim(1)]);
    await batchRepo.fail(ctx.db, finished, "test", "PROCESSING_ERROR");
    const orphan = randomUUID();
    const recent = randomUUID();
    for (const batchId of [orphan, recent])
      await spoolPartsRepo.insert(ctx.db, { batchId, part: 1, claims: 1, bytes: 3, data: gzipSync("{}\n") });
    await ctx.db.query(
      "UPDATE claims_batch_spool_parts SET created_at = now() - interval '25 hours' WHERE batch_id = $1",
      [orphan],
    );
    assert.ok((await spoolPartsRepo.purgeLeftovers(ctx.db, new Date())) >= 2);
    assert.deepEqual(
      [(await partsOf(waiting)).length, (await partsOf(finished)).length],
      [1, 0],
      "a queued batch keeps its parts, a failed one's go",
    );
    assert.deepEqual([(await partsOf(orphan)).length, (await partsOf(recent)).length], [0, 1]);
    for (const batchId of [recent, waiting]) await spoolPartsRepo.remove(ctx.db, batchId);
  });
});
