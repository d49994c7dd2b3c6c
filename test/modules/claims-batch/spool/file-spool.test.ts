import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { claimIdOf } from "../../../../src/engine/fwa/columns/columnar.js";
import { decodeColumnPart } from "../../../../src/engine/fwa/columns/part.js";
import { batchAnalysisJob } from "../../../../src/modules/claims-batch/job.js";
import { batchRepo } from "../../../../src/modules/claims-batch/repo.js";
import { CHUNK_BYTES } from "../../../../src/modules/claims-batch/upload/claim-chunk.js";
import { silentLog, startTestApp, type TestContext, testConfig } from "../../../helpers.js";
import { batchBody, batchClaim, claimsCall, tokenFor, uploadBatch, waitForBatch } from "../fixtures.js";

/** the column parts of a spool file: each one's length (u32, little-endian), then its bytes */
function partsOfFile(path: string) {
  const bytes = readFileSync(path);
  const parts = [];
  for (let at = 0; at < bytes.length; ) {
    const length = bytes.readUInt32LE(at);
    parts.push({ bytes: length, view: decodeColumnPart(bytes.subarray(at + 4, at + 4 + length)) });
    at += 4 + length;
  }
  return parts;
}

describe("the file spool", () => {
  const spoolDir = mkdtempSync(join(tmpdir(), "mizan-file-spool-"));
  const settings = testConfig({ MIZAN_SPOOL_DIR: spoolDir }).batches;
  const worker = batchAnalysisJob(settings);
  let ctx: TestContext;
  let token: string;
  before(async () => {
    ctx = await startTestApp({ MIZAN_SPOOL_DIR: spoolDir }, { workers: 0 });
    token = await tokenFor(ctx.app, ctx.tenant);
  });
  after(async () => {
    await ctx.close();
    rmSync(spoolDir, { recursive: true, force: true });
  });
  const jobContext = () => ({
    db: ctx.db,
    jobs: ctx.jobs,
    log: silentLog,
    attempt: 0,
    signal: new AbortController().signal,
  });

  async function submit(claims: ReturnType<typeof batchClaim>[]) {
    const accepted = await uploadBatch(ctx.app, token, batchBody(claims));
    assert.equal(accepted.statusCode, 202, accepted.body);
    return accepted.json().batch_id as string;
  }

  const claimIdsOf = async (batchId: string) => {
    const page = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}/results?per_page=1000`,
    });
    return page.json().claims.map((claim: { claim_id: string }) => claim.claim_id);
  };

  it("keeps an upload as parts of columns, each of a bounded share of the JSON, which the analysis joins", async () => {
    const claims = Array.from({ length: 10_000 }, (_, n) => batchClaim(n, {}, 4));
    assert.ok(JSON.stringify(claims).length > 2 * CHUNK_BYTES, "the batch spans three parts");
    const batchId = await submit(claims);
    const batch = await batchRepo.findForWorker(ctx.db, batchId);
    assert.deepEqual([batch?.spool_path, batch?.spool_parts], [`${batchId}.parts`, null]);
    const path = join(spoolDir, `${batchId}.parts`);
    const parts = partsOfFile(path);
    assert.equal(parts.length, 3);
    assert.equal(
      parts.reduce((sum, part) => sum + part.view.claimCount, 0),
      10_000,
    );
    assert.equal(parts[1] && claimIdOf(parts[1].view, 0), `C-${parts[0]?.view.claimCount}`);
    assert.ok(statSync(path).size < JSON.stringify(claims).length / 2, "columns are smaller than the JSON");

    await worker.handle({ batchId }, jobContext());
    const status = await waitForBatch(ctx.app, token, batchId);
    assert.deepEqual([status.status, status.processed_claims], ["completed", 10_000]);
    assert.deepEqual(
      await claimIdsOf(batchId),
      claims.slice(0, 1000).map((claim) => claim.claim_id),
    );
    assert.ok(!existsSync(path), "the spool is gone");
  });

  it("analyses a spool written as JSON lines, as uploads were spooled before parts", async () => {
    const claims = Array.from({ length: 300 }, (_, n) => batchClaim(n));
    const batchId = await submit(claims);
    rmSync(join(spoolDir, `${batchId}.parts`));
    writeFileSync(
      join(spoolDir, `${batchId}.ndjson`),
      `${claims.map((c) => JSON.stringify(c)).join("\n")}\n`,
    );
    await ctx.db.query("UPDATE claims_batches SET spool_path = $2 WHERE id = $1", [
      batchId,
      `${batchId}.ndjson`,
    ]);

    await worker.handle({ batchId }, jobContext());
    const status = await waitForBatch(ctx.app, token, batchId);
    assert.deepEqual([status.status, status.processed_claims], ["completed", 300]);
    assert.deepEqual(
      await claimIdsOf(batchId),
      claims.map((claim) => claim.claim_id),
    );
    assert.ok(!existsSync(join(spoolDir, `${batchId}.ndjson`)));
  });
});
