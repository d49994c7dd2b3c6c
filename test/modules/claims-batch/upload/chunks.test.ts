import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CHUNK_BYTES } from "../../../../src/modules/claims-batch/upload/claim-chunk.js";
import { startTestApp, type TestContext } from "../../../helpers.js";
import { batchBody, batchClaim, tokenFor, uploadBatch } from "../fixtures.js";

interface Problem {
  field: string;
  reason: string;
  claim_index: number | null;
}

for (const threads of ["2", "0"])
  describe(`an upload of several chunks, checked by ${threads} threads beside the stream (the last chunk on it)`, () => {
    const spoolDir = mkdtempSync(join(tmpdir(), "mizan-chunks-"));
    let ctx: TestContext;
    let token: string;
    before(async () => {
      ctx = await startTestApp(
        { MIZAN_SPOOL_DIR: spoolDir, MIZAN_UPLOAD_CHECK_THREADS: threads },
        { workers: 0 },
      );
      token = await tokenFor(ctx.app, ctx.tenant);
    });
    after(async () => {
      await ctx.close();
      rmSync(spoolDir, { recursive: true, force: true });
    });

    it("lists the problems in the claims' order across chunks, counts them all, and spools nothing", async () => {
      const invalid = new Set([3, ...Array.from({ length: 150 }, (_, n) => 5_000 + n), 11_999]);
      const claims = Array.from({ length: 12_000 }, (_, n) =>
        batchClaim(n, invalid.has(n) ? { claim_type: "NOT-A-TYPE" } : {}, 4),
      );
      assert.ok(JSON.stringify(claims).length > 2 * CHUNK_BYTES, "three chunks at least");
      const refused = await uploadBatch(ctx.app, token, batchBody(claims));
      assert.equal(refused.statusCode, 400, refused.body);
      const error = refused.json().error as { message: string; details: Problem[] };
      assert.equal(error.message, "The batch has 152 validation errors (the first 100 are listed)");
      assert.deepEqual(
        error.details.map((problem) => problem.claim_index),
        [3, ...Array.from({ length: 99 }, (_, n) => 5_000 + n)],
      );
      assert.deepEqual(error.details[0], {
        field: "claims[3].claim_type",
        reason: error.details[0]?.reason,
        claim_index: 3,
      });
      assert.deepEqual(readdirSync(spoolDir), [], "a refused upload leaves no spool");
    });

    it("accepts a valid upload of several chunks with its counts, the same whichever chunk a claim fell in", async () => {
      const claims = Array.from({ length: 12_000 }, (_, n) => batchClaim(n, {}, (n % 4) + 1));
      const accepted = await uploadBatch(ctx.app, token, batchBody(claims));
      assert.equal(accepted.statusCode, 202, accepted.body);
      assert.deepEqual(
        [accepted.json().total_claims, accepted.json().total_items],
        [12_000, claims.reduce((sum, claim) => sum + claim.claim_items.length, 0)],
      );
    });
  });
