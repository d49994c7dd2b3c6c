import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { SPOOL_KINDS } from "../../../src/config.js";
import type { ClaimResult } from "../../../src/engine/fwa/results.js";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { expectStatus } from "../prior-auth/fixtures.js";
import { analysedBatch, batchBody, batchClaim, claimsCall, tokenFor, waitForBatch } from "./fixtures.js";

// the same upload, analysis and results whichever spool holds the batch between them
for (const spool of SPOOL_KINDS)
  describe(`batch claims service, with the ${spool} spool`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await startTestApp({ MIZAN_BATCH_SPOOL: spool });
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

describe("batch screening with the statistical detectors", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  // 30 ordinary claims of one member each; a unit price 12 times the others'; and one member's visit
  // split over two claims at one provider on one day
  const screened = () => [
    ...Array.from({ length: 30 }, (_, n) => batchClaim(n)),
    batchClaim(30, {
      member_id: "M-P",
      provider_id: "P-9",
      claim_items: [{ ...batchClaim(30).claim_items[0], claimed_amount: 1500 }],
    }),
    batchClaim(31, { member_id: "M-S", provider_id: "P-8" }, 1),
    batchClaim(32, { member_id: "M-S", provider_id: "P-8" }, 1),
  ];

  async function screen(tenant: TenantClient) {
    const token = await tokenFor(ctx.app, tenant);
    const { batchId, status } = await analysedBatch(ctx.app, token, batchBody(screened()));
    const flagged = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}/results?filter=flagged`,
    });
    assert.equal(flagged.statusCode, 200, flagged.body);
    const all = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}/results`,
    });
    assert.equal(all.statusCode, 200, all.body);
    const claims = all.json().claims as ClaimResult[];
    return { summary: status.summary, flagged: flagged.json().claims as ClaimResult[], claims };
  }

  it("flags with evidence in the reason, and against the tenant's threshold", async () => {
    const tenant = await ctx.newTenant();
    const first = await screen(tenant);
    // an outlying price supports other evidence and flags nothing alone: C-30 keeps its reason
    // and score, approved; the split's two claims are flagged
    assert.deepEqual(
      first.flagged.map((c) => c.claim_id),
      ["C-31", "C-32"],
    );
    const price = first.claims.find((c) => c.claim_id === "C-30") as ClaimResult;
    const [split] = first.flagged as [ClaimResult];
    assert.equal(price.status, "approved");
    const priceItem = price.claim_items[0] as ClaimResult["claim_items"][number];
    assert.deepEqual(
      priceItem.reasons.map((r) => [r.code, r.typeDecision, r.source]),
      [["FWA-PRICE-01", "FLAG", "ai"]],
    );
    assert.match(
      priceItem.reasons[0]?.cause as string,
      /^unit price 1,500\.00 is 12\.9 times the batch median 116\.00 for service SVC-0 over 33 items \(robust z [\d.]+\)$/,
    );
    assert.ok(priceItem.ai_score > 0.9, String(priceItem.ai_score));
    const splitItem = split.claim_items[0] as ClaimResult["claim_items"][number];
    assert.deepEqual(
      splitItem.reasons.map((r) => r.code),
      ["FWA-SPLIT-01"],
    );
    assert.match(
      splitItem.reasons[0]?.cause as string,
      /2 professional claims of this member at provider P-8/,
    );
    // 2 claims (0.35), one diagnosis (0.25), no more items than a typical claim (0.2): 1 - 0.65 * 0.75 * 0.8
    assert.equal(splitItem.ai_score, 0.61);
    assert.deepEqual(first.summary, { approved: 31, flagged: 2, rejected: 0, FWA_cases: 2 });

    // a stricter tenant: the split (0.61) no longer reaches its threshold
    const strict = await ctx.newTenant();
    await expectStatus(strict.call("PATCH", "/settings/fwa", { flag_threshold: 0.6 }), 200);
    assert.deepEqual(
      (await screen(strict)).flagged.map((c) => c.claim_id),
      ["C-31", "C-32"],
    );
    const stricter = await ctx.newTenant();
    await expectStatus(stricter.call("PATCH", "/settings/fwa", { flag_threshold: 0.7 }), 200);
    const second = await screen(stricter);
    assert.deepEqual(second.flagged, []);
    assert.deepEqual(second.summary, { approved: 33, flagged: 0, rejected: 0, FWA_cases: 0 });
  });
});
