import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestContext } from "../../helpers.js";
import {
  analysedBatch,
  batchBody,
  claimsCall,
  inpatientStay as stay,
  tokenFor,
  uploadBatch,
} from "./fixtures.js";

/**
 * 60 claims: H-BIG bills 30 long, costly stays; 15 providers share the rest with ordinary ones; member
 * M-ROVER is seen at four providers.
 */
function rankedBatch() {
  const claims = [];
  for (let n = 0; n < 30; n++) claims.push(stay(n, "H-BIG", 12 + (n % 5), 30_000 + n));
  for (let n = 30; n < 56; n++) claims.push(stay(n, `H-${n % 15}`, 2 + (n % 3), 4_000 + n));
  for (let n = 56; n < 60; n++) claims.push(stay(n, `H-${n % 15}`, 3, 4_000 + n, { member_id: "M-ROVER" }));
  return batchBody(claims);
}

describe("batch rankings", () => {
  let ctx: TestContext;
  let token: string;
  let batchId: string;
  before(async () => {
    ctx = await startTestApp();
    token = await tokenFor(ctx.app, ctx.tenant);
    ({ batchId } = await analysedBatch(ctx.app, token, rankedBatch()));
  });
  after(() => ctx.close());

  const get = (url: string) => claimsCall(ctx.app, token, { method: "GET", url });

  it("ranks every provider by risk_score, the heavy biller with long, costly stays first, with its figures", async () => {
    const res = await get(`/v1/claims/batch/${batchId}/providers?per_page=1000`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.batch_id, batchId);
    assert.equal(body.providers.length, 16, "every provider of the batch");
    assert.deepEqual(body.meta, { page: 1, per_page: 1000, total_pages: 1, total_results: 16 });
    const scores = body.providers.map((p: { risk_score: number }) => p.risk_score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      "ordered by risk_score",
    );
    const [top] = body.providers;
    assert.equal(top.provider_id, "H-BIG");
    assert.equal(top.medical_provider_type, "HOSPITAL");
    assert.equal(top.claims, 30);
    assert.equal(top.items, 30);
    assert.equal(top.claimed_amount, 30 * 30_000 + (29 * 30) / 2);
    assert.ok(top.risk_score > 0.9, `risk ${top.risk_score}`);
    const codes = top.reasons.map((r: { code: string }) => r.code);
    for (const code of ["FWA-RANK-VOLUME", "FWA-RANK-STAY", "FWA-RANK-COST"])
      assert.ok(codes.includes(code), code);
    const volume = top.reasons.find((r: { code: string }) => r.code === "FWA-RANK-VOLUME");
    assert.match(volume.cause, /^30 claims billing 900,435\.00, 8 times the batch's average of 3\.8 claims$/);
    const small = body.providers.at(-1);
    assert.ok(small.risk_score < 0.5 && small.claims <= 3);
    assert.equal(
      body.providers.reduce((sum: number, p: { claims: number }) => sum + p.claims, 0),
      60,
    );
  });

  it("ranks members, the one seen at four providers first, and pages both rankings", async () => {
    const res = await get(`/v1/claims/batch/${batchId}/members?per_page=5&page=1`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.members.length, 5);
    assert.deepEqual(body.meta, { page: 1, per_page: 5, total_pages: 12, total_results: 57 });
    const [top] = body.members;
    assert.equal(top.member_id, "M-ROVER");
    assert.equal(top.claims, 4);
    assert.ok(
      top.reasons.some((r: { code: string; cause: string }) => r.cause === "4 providers in the batch"),
    );
    const last = await get(`/v1/claims/batch/${batchId}/members?per_page=5&page=12`);
    assert.equal(last.json().members.length, 2);
    const beyond = await get(`/v1/claims/batch/${batchId}/providers?per_page=5&page=9`);
    assert.deepEqual(beyond.json().providers, []);
  });

  it("streams every entity as CSV in rank order", async () => {
    const res = await get(`/v1/claims/batch/${batchId}/providers?format=csv`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers["content-type"]), /^text\/csv/);
    const lines = res.body.trim().split("\r\n");
    assert.equal(
      lines[0],
      "batch_id,rank,provider_id,medical_provider_type,risk_score,claims,items,claimed_amount,flagged_claims,rejected_claims,flagged_amount,reason_codes,reason_causes",
    );
    assert.equal(lines.length, 17);
    assert.match(lines[1] ?? "", new RegExp(`^${batchId},1,H-BIG,HOSPITAL,0\\.9\\d*,30,30,900435\\.00,`));
    const members = await get(`/v1/claims/batch/${batchId}/members?format=csv`);
    assert.equal(members.body.trim().split("\r\n").length, 58);
  });

  it("answers 404 for an unknown or another tenant's batch, and 400 for a bad page", async () => {
    const unknown = await get("/v1/claims/batch/00000000-0000-4000-8000-000000000000/providers");
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error.code, "NOT_FOUND");
    const other = await ctx.newTenant();
    const otherToken = await tokenFor(ctx.app, other);
    const foreign = await claimsCall(ctx.app, otherToken, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}/members`,
    });
    assert.equal(foreign.statusCode, 404);
    const bad = await get(`/v1/claims/batch/${batchId}/providers?per_page=1001`);
    assert.equal(bad.statusCode, 400);
  });
});

describe("batch rankings before the analysis", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({}, { workers: 0 });
  });
  after(() => ctx.close());

  it("answers 409 RESULTS_NOT_READY while the batch waits", async () => {
    const token = await tokenFor(ctx.app, ctx.tenant);
    const uploaded = await uploadBatch(ctx.app, token, rankedBatch());
    const res = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${uploaded.json().batch_id}/providers`,
    });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error.code, "RESULTS_NOT_READY");
  });
});
