import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../../../src/config.js";
import { startTestApp, type TestContext } from "../../../helpers.js";
import { batchBody, batchClaim, tokenFor } from "../fixtures.js";
import { generatedBatch, streamUpload } from "./streamed-upload.js";

const MIB = 1024 ** 2;

/** a batch whose second claim holds `fillBytes` of one string; its claim_id before or after that string */
function hugeClaimBatch(reference: string, claimId: string, fillBytes: number, idFirst = true) {
  const id = `"claim_id":${JSON.stringify(claimId)}`;
  const head = `{"batch_reference_id":"${reference}","start_date":"2026-03-01","end_date":"2026-03-31","claims":[${JSON.stringify(batchClaim(0))},{${idFirst ? `${id},` : ""}"claim_type":"PROFESSIONAL","primary_diagnosis_description":"`;
  return generatedBatch(head, fillBytes, `"${idFirst ? "" : `,${id}`}}]}`);
}

describe("the bound on one claim, over real HTTP", () => {
  let ctx: TestContext;
  let url: string;
  let token: string;
  before(async () => {
    ctx = await startTestApp();
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/v1/claims/batch/upload`;
    token = await tokenFor(ctx.app, ctx.tenant);
  });
  after(() => ctx.close());

  it("refuses three concurrent uploads of one 300 MB claim at once: 413 naming the claim, the server's memory flat", async (t) => {
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const started = Date.now();
    const answers = await Promise.all(
      [0, 1, 2].map((n) =>
        // the third gzip-compressed: the bound is on JSON, whatever was sent
        streamUpload(url, token, hugeClaimBatch(`huge-${n}`, `C-HUGE-${n}`, 300 * MIB), n === 2),
      ),
    ).finally(() => clearInterval(sampler));
    const seconds = (Date.now() - started) / 1000;
    const grownMb = (peak - rssBefore) / MIB;
    t.diagnostic(`answered in ${seconds} s; the process's RSS grew by ${grownMb.toFixed(0)} MB at most`);
    answers.forEach((answer, n) => {
      assert.equal(answer.status, 413, answer.body);
      const body = JSON.parse(answer.body) as { error: { code: string; message: string }; timestamp: string };
      assert.equal(body.error.code, "PAYLOAD_TOO_LARGE");
      assert.equal(
        body.error.message,
        `claims[1] (claim_id "C-HUGE-${n}") exceeds 1048576 bytes of JSON (MIZAN_BATCH_MAX_CLAIM_BYTES)`,
      );
      assert.equal(typeof body.timestamp, "string");
    });
    assert.ok(grownMb < 200, `the process grew by ${grownMb.toFixed(0)} MB`);
    assert.ok(seconds < 10, `answered in ${seconds} s`);
  });

  it("names the claim by its index alone when its claim_id comes after the cut", async () => {
    const answer = await streamUpload(url, token, hugeClaimBatch("late-id", "C-LATE", 2 * MIB, false));
    assert.equal(answer.status, 413, answer.body);
    assert.equal(
      JSON.parse(answer.body).error.message,
      "claims[1] exceeds 1048576 bytes of JSON (MIZAN_BATCH_MAX_CLAIM_BYTES)",
    );
  });

  it("still accepts a batch of ordinary claims afterwards", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(batchBody([batchClaim(1), batchClaim(2)])),
    });
    assert.equal(res.status, 202, await res.clone().text());
  });

  it("answers an upload without a body or a content type 400 in the batch's shape, not 500", async () => {
    const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 400);
    const body = (await res.json()) as {
      error: { code: string; details: { field: string; reason: string }[] };
    };
    assert.equal(body.error.code, "VALIDATION_ERROR");
    assert.deepEqual(body.error.details, [
      { field: "body", reason: "the upload holds no JSON (it is empty) (at byte 0)", claim_index: null },
    ]);
  });

  it("refuses an invalid MIZAN_BATCH_MAX_CLAIM_BYTES at start, naming it", () => {
    for (const value of ["1mb", "100", String(128 * MIB)])
      assert.throws(
        () => loadConfig({ MIZAN_BATCH_MAX_CLAIM_BYTES: value }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.some((p) => p.includes("MIZAN_BATCH_MAX_CLAIM_BYTES")),
        value,
      );
  });
});
