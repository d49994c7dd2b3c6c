import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { batchRepo } from "../../../src/modules/claims-batch/repo.js";
import { startTestApp, type TestContext } from "../../helpers.js";
import {
  batchBody,
  batchClaim,
  claimsCall,
  inpatientStay as stay,
  tokenFor,
  uploadBatch,
  waitForBatch,
} from "../claims-batch/fixtures.js";
import { createReviewer, signIn } from "./fixtures.js";

const SCRIPT_CLAIM = "<script>alert(1)</script>";

/**
 * H-BIG bills 30 long, costly stays, 15 providers share ordinary ones; one claim predates its cover, one
 * office visit bills ten times the others' quantity
 */
function rankedBatch() {
  const claims: unknown[] = [];
  for (let n = 0; n < 30; n++) claims.push(stay(n, "H-BIG", 12 + (n % 5), 30_000 + n));
  for (let n = 30; n < 60; n++) claims.push(stay(n, `H-${n % 15}`, 2 + (n % 3), 4_000 + n));
  claims.push(batchClaim(60, { claim_id: SCRIPT_CLAIM, insurance_start_date: "2026-04-01" }));
  // 30 office visits of one, and one of ten: its quantity is flagged (a price alone only supports)
  for (let n = 61; n < 91; n++) claims.push(batchClaim(n));
  claims.push(
    batchClaim(91, {
      claim_items: [{ ...batchClaim(91).claim_items[0], claimed_quantity: 10, claimed_amount: 1_000 }],
    }),
  );
  return batchBody(claims);
}

describe("reviewer console: claims batches", () => {
  let ctx: TestContext;
  let cookie: string;
  let token: string;
  let batchId: string;
  let reference: string;
  let otherBatchId: string;

  before(async () => {
    ctx = await startTestApp();
    await createReviewer(ctx.tenant);
    ({ cookie } = await signIn(ctx, ctx.tenant));
    token = await tokenFor(ctx.app, ctx.tenant);
    const body = rankedBatch();
    reference = body.batch_reference_id;
    const uploaded = await uploadBatch(ctx.app, token, body);
    assert.equal(uploaded.statusCode, 202, uploaded.body);
    batchId = uploaded.json().batch_id;
    const other = await ctx.newTenant();
    const otherToken = await tokenFor(ctx.app, other);
    const otherUpload = await uploadBatch(ctx.app, otherToken, batchBody([batchClaim(1)]));
    assert.equal(otherUpload.statusCode, 202, otherUpload.body);
    otherBatchId = otherUpload.json().batch_id;
    assert.equal((await waitForBatch(ctx.app, token, batchId)).status, "completed");
    await waitForBatch(ctx.app, otherToken, otherBatchId);
  });
  after(() => ctx.close());

  const base = () => `/${ctx.tenant.name}/console/batches`;
  /** a page with the reviewer's session, or with none when `session` is "" */
  const get = (url: string, session = cookie) =>
    ctx.app.inject({ method: "GET", url, headers: session ? { cookie: session } : {} });
  const api = (url: string) => claimsCall(ctx.app, token, { method: "GET", url });

  it("lists the tenant's batches with their status, counts and a link to each", async () => {
    const res = await get(base());
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers["content-type"]), /^text\/html/);
    const row = new RegExp(`<tr data-batch-id="${batchId}"[\\s\\S]*?</tr>`).exec(res.body)?.[0] ?? "";
    assert.match(row, new RegExp(`<a href="${base()}/${batchId}">${reference}</a>`));
    assert.match(row, /<span class="badge completed">completed<\/span>/);
    assert.match(row, /<td class="num">100 %<\/td>/);
    assert.match(row, /<td class="num">92<\/td>/, "its claims");
    assert.doesNotMatch(res.body, new RegExp(otherBatchId), "another tenant's batch is not listed");
    assert.doesNotMatch(res.body, /style=|<style/);
  });

  it("shows a completed batch's status chart, score histogram and provider ranking by risk", async () => {
    const res = await get(`${base()}/${batchId}`);
    assert.equal(res.statusCode, 200, res.body);
    const summary = (await api(`/v1/claims/batch/${batchId}`)).json().summary;
    const [statusChart, scoreChart] = [...res.body.matchAll(/<svg class="chart"[\s\S]*?<\/svg>/g)].map(
      (m) => m[0],
    );
    for (const status of ["approved", "flagged", "rejected"])
      assert.match(
        statusChart ?? "",
        new RegExp(`<rect class="${status}"[^>]*><title>${status}: ${summary[status]}<`),
      );
    assert.ok(summary.rejected >= 1 && summary.flagged >= 1, JSON.stringify(summary));
    const bins = [...(scoreChart ?? "").matchAll(/<rect class="score"[^>]*><title>[^:]+: (\d+)</g)].map((m) =>
      Number(m[1]),
    );
    assert.equal(bins.length, 10);
    const items = (await api(`/v1/claims/batch/${batchId}/results?per_page=1000`))
      .json()
      .claims.flatMap((claim: { claim_items: { ai_score: number }[] }) => claim.claim_items);
    assert.equal(
      bins.reduce((sum, n) => sum + n, 0),
      items.length,
      "every item in one bin",
    );
    assert.equal(bins[9], items.filter((item: { ai_score: number }) => item.ai_score >= 0.9).length);
    const shown = [...res.body.matchAll(/<tr data-provider-id="([^"]+)"/g)].map((m) => m[1]);
    const ranked = (await api(`/v1/claims/batch/${batchId}/providers?per_page=50`)).json().providers;
    assert.deepEqual(
      shown,
      ranked.map((p: { provider_id: string }) => p.provider_id),
      "in the API's risk order",
    );
    assert.equal(shown[0], "H-BIG");
    assert.match(res.body, new RegExp(`href="${base()}/${batchId}/providers/H-BIG"`));
    assert.match(res.body, new RegExp(`href="${base()}/${batchId}/results.csv"`));
    assert.doesNotMatch(res.body, /style=|<style/);
  });

  it("shows a provider's figures and the reasons of its risk", async () => {
    const res = await get(`${base()}/${batchId}/providers/H-BIG`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<h1>Provider H-BIG<\/h1>/);
    assert.match(res.body, /rank 1 by risk/);
    assert.match(res.body, /<span class="code">FWA-RANK-VOLUME<\/span>/);
    assert.equal((await get(`${base()}/${batchId}/providers/H-NONE`)).statusCode, 404);
  });

  it("lists a provider's flagged and rejected claims, and only its own", async () => {
    const providerOf = new Map(
      (rankedBatch().claims as { claim_id: string; provider_id: string }[]).map((claim) => [
        claim.claim_id,
        claim.provider_id,
      ]),
    );
    const notApproved = [
      ...(await api(`/v1/claims/batch/${batchId}/results?filter=flagged&per_page=100`)).json().claims,
      ...(await api(`/v1/claims/batch/${batchId}/results?filter=rejected&per_page=100`)).json().claims,
    ] as { claim_id: string; provider_id?: string }[];
    assert.ok(notApproved.length > 0);
    assert.equal(notApproved[0]?.provider_id, undefined, "the API's results are as the spec has them");
    for (const provider of new Set(notApproved.map((claim) => providerOf.get(claim.claim_id)))) {
      const res = await get(`${base()}/${batchId}/providers/${provider}`);
      const shown = [...res.body.matchAll(/data-claim-id="([^"]+)"/g)].map((match) => match[1]);
      const expected = notApproved
        .filter((claim) => providerOf.get(claim.claim_id) === provider)
        .map((claim) => claim.claim_id.replaceAll("<", "&lt;").replaceAll(">", "&gt;"));
      assert.deepEqual(shown.sort(), expected.sort(), String(provider));
    }
  });

  it("lists the flagged and rejected claims with every item's status, score and reasons", async () => {
    const flagged = (await api(`/v1/claims/batch/${batchId}/results?filter=flagged&per_page=50`)).json()
      .claims;
    const res = await get(`${base()}/${batchId}/claims?status=flagged`);
    assert.equal(res.statusCode, 200, res.body);
    for (const claim of flagged) {
      assert.match(res.body, new RegExp(`<section class="item flagged" data-claim-id="${claim.claim_id}">`));
      for (const reason of claim.claim_items.flatMap((item: { reasons: { code: string }[] }) => item.reasons))
        assert.match(res.body, new RegExp(`<span class="code">${reason.code}</span>`));
    }
    const rejected = await get(`${base()}/${batchId}/claims?status=rejected`);
    assert.match(rejected.body, /<h3>&lt;script&gt;alert\(1\)&lt;\/script&gt; <span class="badge rejected">/);
    assert.match(rejected.body, /<span class="code">NDC034<\/span>/);
    assert.doesNotMatch(rejected.body, /<script>alert/);
  });

  it("downloads the results CSV byte for byte as the API's format=csv", async () => {
    const res = await get(`${base()}/${batchId}/results.csv`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers["content-type"]), /^text\/csv/);
    assert.match(String(res.headers["content-disposition"]), /^attachment; filename="[\w-]+\.csv"$/);
    const fromApi = await api(`/v1/claims/batch/${batchId}/results?format=csv`);
    assert.equal(fromApi.statusCode, 200);
    assert.ok(res.rawPayload.equals(fromApi.rawPayload), "the same bytes");
  });

  it("answers 404 for another tenant's batch and for unknown ids", async () => {
    for (const id of [otherBatchId, randomUUID(), "not-a-batch"])
      for (const path of ["", "/results.csv", "/claims", "/providers/H-BIG"])
        assert.equal((await get(`${base()}/${id}${path}`)).statusCode, 404, `${id}${path}`);
  });

  /** an accepted batch stored as it stands in `status`, never analysed here */
  async function storedBatch(status: "processing" | "failed", error: string | null = null) {
    const id = randomUUID();
    await batchRepo.insert(ctx.db, {
      id,
      tenant_id: ctx.tenant.id,
      batch_reference_id: `${status.toUpperCase()}-${id}`,
      description: null,
      status,
      accepted: true,
      total_claims: 10,
      total_items: 20,
      spool_path: null,
      request_id: null,
      error,
      error_code: error === null ? null : "PROCESSING_ERROR",
      start_date: null,
      end_date: null,
      validation_errors: null,
    });
    return id;
  }

  it("shows the status of a batch still analysed, without charts", async () => {
    const id = await storedBatch("processing");
    const res = await get(`${base()}/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<span class="badge processing">processing<\/span>/);
    assert.match(res.body, /the charts show once its analysis completes/);
    assert.doesNotMatch(res.body, /<svg/);
  });

  it("offers a failed batch's results as the API answers them: readable, and empty", async () => {
    const id = await storedBatch("failed", "The analysis failed; reference R-1");
    const fromApi = await api(`/v1/claims/batch/${id}/results`);
    assert.equal(fromApi.statusCode, 200, fromApi.body);
    assert.deepEqual([fromApi.json().status, fromApi.json().claims], ["failed", []]);
    const res = await get(`${base()}/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<span class="badge failed">failed<\/span>/);
    assert.match(res.body, /The analysis failed; reference R-1/);
    assert.match(res.body, /The analysis failed: the batch has no results\./);
    assert.match(res.body, new RegExp(`href="${base()}/${id}/results.csv"`));
    assert.match(res.body, /Flagged claims \(0\)/);
    assert.doesNotMatch(res.body, /<svg/, "no charts of nothing");
    const flagged = await get(`${base()}/${id}/claims?status=flagged`);
    assert.equal(flagged.statusCode, 200, flagged.body);
    assert.match(flagged.body, /No flagged claims here\./);
    const csv = await get(`${base()}/${id}/results.csv`);
    assert.equal(csv.statusCode, 200, csv.body);
    const csvFromApi = await api(`/v1/claims/batch/${id}/results?format=csv`);
    assert.ok(csv.rawPayload.equals(csvFromApi.rawPayload), "the same bytes: the header alone");
  });

  it("shows the sign-in form without a session", async () => {
    for (const path of ["", `/${batchId}`, `/${batchId}/results.csv`, `/${batchId}/providers/H-BIG`]) {
      const res = await get(`${base()}${path}`, "");
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /<title>Sign in · Mizan<\/title>/, path);
      assert.doesNotMatch(res.body, new RegExp(reference));
    }
  });
});
