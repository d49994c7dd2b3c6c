import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { batchBody, batchClaim, claimsCall, tokenFor, waitForBatch } from "./claims-fixtures.js";
import { startTestApp, type TestContext } from "./helpers.js";

describe("batch claims service", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("takes a gzip batch, analyses it, and serves its results as JSON and CSV", async () => {
    const token = await tokenFor(ctx.app, ctx.tenant);
    const claims = Array.from({ length: 25 }, (_, n) => batchClaim(n));
    const body = batchBody(claims);
    const accepted = await claimsCall(ctx.app, token, {
      method: "POST",
      url: "/v1/claims/batch/upload",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      payload: gzipSync(JSON.stringify(body)),
    });
    assert.equal(accepted.statusCode, 202, accepted.body);
    const answer = accepted.json();
    assert.deepEqual(
      [answer.batch_reference_id, answer.status, answer.total_claims, answer.total_items],
      [body.batch_reference_id, "queued", 25, 50],
    );
    const status = await waitForBatch(ctx.app, token, answer.batch_id);
    assert.equal(status.status, "completed", JSON.stringify(status));
    const results = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${answer.batch_id}/results?page=2&per_page=10`,
    });
    assert.equal(results.statusCode, 200, results.body);
    const page = results.json();
    assert.deepEqual(page.meta, { page: 2, per_page: 10, total_pages: 3, total_results: 25 });
    assert.deepEqual(
      page.claims.map((c: { claim_id: string }) => c.claim_id),
      claims.slice(10, 20).map((c) => c.claim_id),
    );
    const csv = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${answer.batch_id}/results?format=csv`,
    });
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers["content-type"]), /text\/csv/);
    const lines = csv.body.trim().split("\r\n");
    assert.equal(lines.length, 51);
  });
});
