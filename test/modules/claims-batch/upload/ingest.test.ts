import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { startTestApp, type TestContext } from "../../../helpers.js";
import { type Received, signedWith, startReceiver } from "../../../platform/events/webhook-receiver.js";
import { batchBody, batchClaim, claimsCall, tokenFor, uploadBatch, waitForBatch } from "../fixtures.js";

const SECRET = "subscription-secret-1";

interface Problem {
  field: string;
  reason: string;
  claim_index: number | null;
}

describe("batch upload", () => {
  let ctx: TestContext;
  let token: string;
  before(async () => {
    ctx = await startTestApp({ MIZAN_BATCH_MAX_BYTES: "200000", MIZAN_BATCH_MAX_JSON_BYTES: "400000" });
    token = await tokenFor(ctx.app, ctx.tenant);
  });
  after(() => ctx.close());

  const upload = (
    payload: string | Buffer,
    headers: Record<string, string> = { "content-type": "application/json" },
  ) => claimsCall(ctx.app, token, { method: "POST", url: "/v1/claims/batch/upload", headers, payload });

  function problemsOf(res: { statusCode: number; json(): { error: { code: string; details: Problem[] } } }) {
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, "VALIDATION_ERROR");
    return res.json().error.details;
  }

  it("names every field rule of claims and items, with the claim's index", async () => {
    const claims = [
      batchClaim(0),
      batchClaim(1, { claim_date: "2026-03-10T00:00:00.000Z" }),
      batchClaim(2, { member_dob: "1985-06-15" }),
      batchClaim(3, { claim_type: "DENTAL", member_gender: "X" }),
      batchClaim(4, { primary_diagnosis_description: "x".repeat(501) }),
      batchClaim(5, { claim_items: [] }),
      batchClaim(6, { claim_items: [{ ...batchClaim(6).claim_items[0], claimed_amount: 10.555 }] }),
      batchClaim(7, { claim_items: [{ ...batchClaim(7).claim_items[0], claimed_quantity: 0 }] }),
      batchClaim(8, { secondary_diagnosis_codes: [{ type: "primary", code: "I10", name: "Hypertension" }] }),
      batchClaim(9, { primary_diagnosis_code: "not-icd" }),
      batchClaim(10, { "pre-auth_status": "MAYBE", is_vip: "yes" }),
      batchClaim(11, { days_supply: 0, claim_id: undefined }),
      batchClaim(12, {
        claim_items: [{ ...batchClaim(12).claim_items[0], justification: "j".repeat(2001) }],
      }),
    ];
    const problems = problemsOf(await upload(JSON.stringify(batchBody(claims))));
    const has = (index: number, field: RegExp, reason?: RegExp) =>
      assert.ok(
        problems.some(
          (p) =>
            p.claim_index === index && field.test(p.field) && (reason === undefined || reason.test(p.reason)),
        ),
        `claim ${index}: ${field} in ${JSON.stringify(problems.filter((p) => p.claim_index === index))}`,
      );
    has(1, /^claims\[1\]\.claim_date$/, /YYYY-MM-DD$/);
    has(2, /^claims\[2\]\.member_dob$/, /YYYY-MM-DDTHH:mm:ss\.sssZ/);
    has(3, /^claims\[3\]\.claim_type$/, /PROFESSIONAL, INSTITUTIONAL/);
    has(3, /^claims\[3\]\.member_gender$/);
    has(4, /^claims\[4\]\.primary_diagnosis_description$/, /500/);
    has(5, /^claims\[5\]\.claim_items$/, /1/);
    has(6, /^claims\[6\]\.claim_items\[0\]\.claimed_amount$/, /2 decimals/);
    has(7, /^claims\[7\]\.claim_items\[0\]\.claimed_quantity$/);
    has(8, /^claims\[8\]\.secondary_diagnosis_codes\[0\]\.type$/);
    has(9, /^claims\[9\]\.primary_diagnosis_code$/);
    has(10, /^claims\[10\]\.pre-auth_status$/);
    has(10, /^claims\[10\]\.is_vip$/);
    has(11, /^claims\[11\]\.claim_id$/, /required/);
    has(11, /^claims\[11\]\.days_supply$/);
    has(12, /^claims\[12\]\.claim_items\[0\]\.justification$/);
    assert.ok(!problems.some((p) => p.claim_index === 0), "claim 0 is valid");
  });

  it("checks the batch's own fields, with claim_index null", async () => {
    for (const [body, field, reason] of [
      [batchBody([batchClaim(0)], { end_date: "2026-02-01" }), "end_date", /not be before start_date/],
      [batchBody([batchClaim(0)], { start_date: "2026-13-01" }), "start_date", /YYYY-MM-DD/],
      [batchBody([batchClaim(0)], { batch_reference_id: "r".repeat(101) }), "batch_reference_id", /100/],
      [batchBody([batchClaim(0)], { batch_reference_id: undefined }), "batch_reference_id", /required/],
      [batchBody([batchClaim(0)], { description: "d".repeat(501) }), "description", /500/],
      [batchBody([]), "claims", /at least 1/],
      [batchBody([batchClaim(0)], { claims: undefined }), "claims", /required/],
    ] as const) {
      const res = await upload(JSON.stringify(body));
      const problems = problemsOf(res);
      assert.ok(
        problems.some((p) => p.field === field && p.claim_index === null && reason.test(p.reason)),
        `${field}: ${JSON.stringify(problems)}`,
      );
      assert.equal(typeof res.json().timestamp, "string");
      if (typeof body.batch_reference_id === "string" && body.batch_reference_id.length <= 100)
        assert.equal(res.json().batch_reference_id, body.batch_reference_id);
    }
  });

  it("refuses malformed JSON, bad gzip and unsupported types, and caps the body and its decompression", async () => {
    const badClaim = problemsOf(await upload('{"claims": [{"claim_id": "C1"}, {oops}]}'));
    assert.ok(
      badClaim.some(
        (p) => p.field === "claims[1]" && p.reason === "is not valid JSON" && p.claim_index === 1,
      ),
    );
    const broken = problemsOf(await upload('{"claims": [{"claim_id": "C1"} {"claim_id": "C2"}]}'));
    assert.match(
      broken.find((p) => p.field === "body")?.reason ?? "",
      /',' or '\]' was expected .*at byte 31\)/,
    );
    const notGzip = problemsOf(
      await upload("plain text", { "content-type": "application/json", "content-encoding": "gzip" }),
    );
    assert.match(notGzip[0]?.reason ?? "", /gzip/);
    const xml = await upload("<batch/>", { "content-type": "application/xml" });
    assert.equal(xml.statusCode, 415);
    // 200,000 bytes as sent
    const big = await upload(JSON.stringify(batchBody(Array.from({ length: 400 }, (_, n) => batchClaim(n)))));
    assert.equal(big.statusCode, 413, big.body);
    assert.equal(big.json().error.code, "PAYLOAD_TOO_LARGE");
    // a small gzip that expands past 400,000 bytes of JSON
    const bomb = gzipSync(`{"description": "${" ".repeat(2_000_000)}"}`);
    assert.ok(bomb.length < 10_000);
    const exploded = await upload(bomb, { "content-type": "application/gzip" });
    assert.equal(exploded.statusCode, 413, exploded.body);
  });

  it("keeps batch_reference_id unique per tenant (409), but a refused batch leaves it free", async () => {
    const body = batchBody([batchClaim(0)]);
    const refused = await upload(JSON.stringify({ ...body, claims: [batchClaim(0, { claim_date: "bad" })] }));
    assert.equal(refused.statusCode, 400);
    const first = await upload(JSON.stringify(body), {
      "content-type": "application/json",
      "x-request-id": "req-batch-1",
    });
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(first.headers["x-request-id"], "req-batch-1");
    const again = await upload(JSON.stringify(body));
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error.code, "DUPLICATE_BATCH_REFERENCE");
    const other = await ctx.newTenant();
    const theirs = await claimsCall(ctx.app, await tokenFor(ctx.app, other), {
      method: "POST",
      url: "/v1/claims/batch/upload",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    assert.equal(theirs.statusCode, 202, "another tenant may use the same reference");
  });
});

describe("batch lifecycle events", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  const signed = (received: Received) => signedWith(SECRET, received);

  it("sends every event of a batch to the subscription, signed and in order", async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await ctx.newTenant();
      const token = await tokenFor(ctx.app, tenant);
      const subscribed = await claimsCall(ctx.app, token, {
        method: "POST",
        url: "/v1/webhooks/subscribe",
        headers: { "content-type": "application/json" },
        payload: {
          webhook_url: receiver.url,
          events: [
            "batch.queued",
            "batch.validating",
            "batch.processing",
            "batch.validation_failed",
            "batch.completed",
          ],
          secret: SECRET,
        },
      });
      assert.equal(subscribed.statusCode, 201, subscribed.body);
      assert.deepEqual(
        {
          ...(subscribed.json() as Record<string, unknown>),
          subscription_id: typeof subscribed.json().subscription_id,
          created_at: typeof subscribed.json().created_at,
        },
        {
          subscription_id: "string",
          webhook_url: receiver.url,
          status: "active",
          events: [
            "batch.queued",
            "batch.validating",
            "batch.processing",
            "batch.validation_failed",
            "batch.completed",
          ],
          created_at: "string",
        },
      );
      const body = batchBody(Array.from({ length: 30 }, (_, n) => batchClaim(n)));
      const accepted = await uploadBatch(ctx.app, token, body);
      assert.equal(accepted.statusCode, 202, accepted.body);
      assert.equal(accepted.json().webhook_url, receiver.url);
      const batchId = accepted.json().batch_id;
      await waitForBatch(ctx.app, token, batchId);
      const refused = await uploadBatch(ctx.app, token, batchBody([batchClaim(0, { claim_date: "never" })]));
      assert.equal(refused.statusCode, 400);

      const deadline = Date.now() + 15_000;
      const kinds = () => receiver.received.map((r) => r.json.event_type);
      while (
        !(kinds().includes("batch.completed") && kinds().includes("batch.validation_failed")) &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      const ofBatch = receiver.received.filter((r) => r.json.data.batch_id === batchId);
      const sequence = ofBatch.map((r) => r.json.event_type);
      assert.deepEqual(sequence.slice(0, 3), ["batch.queued", "batch.validating", "batch.processing"]);
      assert.equal(sequence.at(-1), "batch.completed");
      const updates = ofBatch.filter((r) => r.json.event_type === "batch.processing_update");
      assert.deepEqual(
        sequence.slice(3, -1),
        updates.map(() => "batch.processing_update"),
      );
      const progress = updates.map((r) => r.json.data.processing_progress as number);
      assert.ok(progress.length >= 5, `updates at ${progress}`);
      assert.ok(
        progress.every((p, i) => i === 0 || p - (progress[i - 1] as number) <= 10 + 2),
        `every 10 %: ${progress}`,
      );
      assert.deepEqual(
        progress,
        [...progress].sort((a, b) => a - b),
        "in order",
      );
      assert.ok(receiver.received.every(signed), "every delivery is signed");
      for (const event of receiver.received) {
        assert.deepEqual(Object.keys(event.json), ["event_type", "event_id", "timestamp", "data"]);
        assert.equal(event.headers["webhook-id"], event.json.event_id);
      }
      const [queued, validating, processing] = ofBatch.map((r) => r.json.data as Record<string, unknown>);
      const update = updates[0]?.json.data;
      const completed = ofBatch.at(-1)?.json.data as Record<string, unknown>;
      assert.deepEqual(queued, {
        batch_id: batchId,
        batch_reference_id: body.batch_reference_id,
        total_claims: 30,
        total_items: 60,
      });
      assert.equal(validating?.validation_progress, 0);
      assert.equal(typeof processing?.estimated_completion_time, "string");
      assert.deepEqual(Object.keys(update ?? {}), [
        "batch_id",
        "batch_reference_id",
        "processing_progress",
        "claims_processed",
        "total_claims",
        "estimated_completion_time",
      ]);
      assert.deepEqual(
        {
          ...completed,
          processing_time_seconds: typeof completed?.processing_time_seconds,
          results_available_until: typeof completed?.results_available_until,
        },
        {
          batch_id: batchId,
          batch_reference_id: body.batch_reference_id,
          total_claims: 30,
          processed_claims: 30,
          failed_claims: 0,
          processing_time_seconds: "number",
          results_available_until: "string",
        },
      );
      const failed = receiver.received.find((r) => r.json.event_type === "batch.validation_failed");
      const errors = (failed?.json.data.errors ?? []) as Problem[];
      assert.deepEqual(errors[0], {
        field: "claims[0].claim_date",
        reason: "must be a date of the form YYYY-MM-DD",
        claim_index: 0,
      });
    } finally {
      await receiver.close();
    }
  });
});
