import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { batchAnalysisJob } from "../../../src/modules/claims-batch/job.js";
import { batchRepo } from "../../../src/modules/claims-batch/repo.js";
import { resultsAvailability } from "../../../src/modules/claims-batch/service.js";
import { listEvents } from "../../../src/platform/events/outbox.js";
import { silentLog, startTestApp, type TestContext, testConfig } from "../../helpers.js";
import {
  batchBody,
  batchClaim,
  capturingLog,
  claimsCall,
  tokenFor,
  uploadBatch,
  waitForBatch,
} from "./fixtures.js";

describe("batch results", () => {
  let ctx: TestContext;
  let token: string;
  let batchId: string;
  const claims = Array.from({ length: 2_500 }, (_, n) =>
    // every 10th claim's service predates its insurance: rejected
    n % 10 === 0 ? batchClaim(n, { insurance_start_date: "2026-04-01" }) : batchClaim(n),
  );

  before(async () => {
    ctx = await startTestApp();
    token = await tokenFor(ctx.app, ctx.tenant);
    const accepted = await uploadBatch(ctx.app, token, batchBody(claims));
    assert.equal(accepted.statusCode, 202, accepted.body);
    batchId = accepted.json().batch_id;
    await waitForBatch(ctx.app, token, batchId, 60_000);
  });
  after(() => ctx.close());

  const results = (query: string) =>
    claimsCall(ctx.app, token, { method: "GET", url: `/v1/claims/batch/${batchId}/results${query}` });

  it("summarizes the batch and pages through it, 100 claims by default and up to 1,000", async () => {
    const first = await results("");
    assert.equal(first.statusCode, 200, first.body);
    const body = first.json();
    assert.equal(body.status, "completed");
    assert.deepEqual([body.total_claims, body.processed_claims, body.failed_claims], [2_500, 2_500, 0]);
    assert.equal(body.summary.rejected, 250);
    assert.equal(body.summary.approved + body.summary.flagged + body.summary.rejected, 2_500);
    assert.deepEqual(body.meta, { page: 1, per_page: 100, total_pages: 25, total_results: 2_500 });
    assert.equal(body.claims.length, 100);
    const item = body.claims[1].claim_items[0];
    assert.deepEqual(Object.keys(item), ["erp_claim_item_id", "status", "ai_score", "reasons"]);
    assert.deepEqual(
      [body.claims[1].claim_id, body.claims[1].erp_claim_id, item.erp_claim_item_id],
      ["C-1", "C-1", "C-1-I0"],
    );
    // a page that spans two stored pages of 1,000 claims
    const spanning = (await results("?page=2&per_page=700")).json();
    assert.deepEqual(
      spanning.claims.map((c: { claim_id: string }) => c.claim_id),
      claims.slice(700, 1400).map((c) => c.claim_id),
    );
    const last = (await results("?page=3&per_page=1000")).json();
    assert.equal(last.claims.length, 500);
    const beyond = (await results("?page=9&per_page=1000")).json();
    assert.deepEqual([beyond.claims, beyond.meta.total_pages], [[], 3]);
    for (const query of ["?per_page=1001", "?page=0", "?filter=odd", "?format=xml"]) {
      const res = await results(query);
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().error.code, "VALIDATION_ERROR");
    }
  });

  it("stores its pages compressed once, by gzip: PostgreSQL keeps them out of line as they are", async () => {
    const columns = await ctx.db.query<{ table: string; storage: string }>(
      `SELECT attrelid::regclass::text AS table, attstorage AS storage FROM pg_attribute
        WHERE attname = 'data' AND attrelid IN ('claims_batch_results'::regclass, 'claims_batch_spool_parts'::regclass)
        ORDER BY 1`,
    );
    assert.deepEqual(columns, [
      { table: "claims_batch_results", storage: "e" },
      { table: "claims_batch_spool_parts", storage: "e" },
    ]);
    const pages = await ctx.db.query<{ gzip: boolean; compression: string | null }>(
      `SELECT substr(data, 1, 2) = '\\x1f8b'::bytea AS gzip, pg_column_compression(data) AS compression
         FROM claims_batch_results WHERE batch_id = $1`,
      [batchId],
    );
    assert.ok(pages.length > 0);
    assert.deepEqual(
      new Set(pages.map((page) => `${page.gzip} ${page.compression}`)),
      new Set(["true null"]),
    );
  });

  it("filters by status, and explains every rejection", async () => {
    const rejected = (await results("?filter=rejected&per_page=1000")).json();
    assert.equal(rejected.meta.total_results, 250);
    assert.deepEqual(rejected.claims.map((c: { claim_id: string }) => c.claim_id).slice(0, 3), [
      "C-0",
      "C-10",
      "C-20",
    ]);
    const reason = rejected.claims[0].claim_items[0].reasons[0];
    assert.deepEqual(Object.keys(reason), [
      "id",
      "createdAt",
      "code",
      "description",
      "cause",
      "typeDecision",
      "source",
    ]);
    assert.equal(reason.code, "NDC034");
    assert.equal(reason.typeDecision, "REJECT");
    assert.match(reason.cause, /2026-03-10.*2026-04-01/);
    assert.ok(rejected.claims.every((c: { status: string }) => c.status === "rejected"));
    const approved = (await results("?filter=approved&per_page=10")).json();
    assert.ok(approved.claims.every((c: { status: string }) => c.status === "approved"));
    assert.equal(approved.meta.total_results, (await results("")).json().summary.approved);
  });

  it("streams the whole batch as CSV, one row per item, filtered too", async () => {
    const csv = await results("?format=csv&page=2&per_page=5");
    assert.equal(csv.statusCode, 200);
    const lines = csv.body.trimEnd().split("\r\n");
    assert.equal(
      lines[0],
      "batch_id,claim_id,claim_status,erp_claim_item_id,item_status,ai_score,reason_codes,reason_descriptions",
    );
    assert.equal(lines.length, 1 + 5_000, "every item, whatever page and per_page say");
    assert.match(lines[1] ?? "", new RegExp(`^${batchId},C-0,rejected,C-0-I0,rejected,1,NDC034,`));
    const rejectedOnly = (await results("?format=csv&filter=rejected")).body.trimEnd().split("\r\n");
    assert.equal(rejectedOnly.length, 1 + 500);
  });

  it("answers 409 before the results exist, and 404 once they are purged", async () => {
    const queued = await startTestApp({}, { workers: 0 });
    try {
      const waiting = await tokenFor(queued.app, queued.tenant);
      const accepted = await uploadBatch(queued.app, waiting, batchBody([batchClaim(1)]));
      const early = await claimsCall(queued.app, waiting, {
        method: "GET",
        url: `/v1/claims/batch/${accepted.json().batch_id}/results`,
      });
      assert.equal(early.statusCode, 409);
      assert.equal(early.json().error.code, "RESULTS_NOT_READY");
    } finally {
      await queued.close();
    }
    await ctx.db.query(
      "UPDATE claims_batches SET results_available_until = now() - interval '1 minute' WHERE id = $1",
      [batchId],
    );
    assert.ok((await batchRepo.purgeExpiredResults(ctx.db, new Date())) >= 1);
    const gone = await results("");
    assert.equal(gone.statusCode, 404);
    assert.match(gone.json().error.message, /were available until/);
    const rows = await ctx.db.query("SELECT 1 FROM claims_batch_results WHERE batch_id = $1", [batchId]);
    assert.equal(rows.length, 0);
  });
});

describe("which batches have results (the API's rule, the console's too)", () => {
  const now = new Date("2026-05-01T00:00:00Z");
  const kept = (until: string | null) => (until === null ? null : new Date(until));
  it("has them once completed or failed, until their time is up", () => {
    for (const [status, until, expected] of [
      ["queued", null, "pending"],
      ["validating", null, "pending"],
      ["processing", null, "pending"],
      ["completed", "2026-05-02T00:00:00Z", "available"],
      ["completed", "2026-04-30T00:00:00Z", "purged"],
      ["failed", null, "available"],
    ] as const)
      assert.equal(
        resultsAvailability({ status, results_available_until: kept(until) }, now),
        expected,
        `${status} until ${until}`,
      );
  });
});

describe("batch analysis across failures", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({}, { workers: 0 });
  });
  after(() => ctx.close());

  const settings = testConfig().batches;
  const job = batchAnalysisJob(settings);
  const contextWith = (signal: AbortSignal) => ({
    db: ctx.db,
    jobs: ctx.jobs,
    log: silentLog,
    attempt: 0,
    signal,
  });

  async function submit(claims: unknown[]) {
    const token = await tokenFor(ctx.app, ctx.tenant);
    const accepted = await uploadBatch(ctx.app, token, batchBody(claims));
    assert.equal(accepted.statusCode, 202, accepted.body);
    return { token, batchId: accepted.json().batch_id as string };
  }

  it("restarts a batch whose worker stopped mid-way, and completes it once", async () => {
    const { token, batchId } = await submit(Array.from({ length: 25_000 }, (_, n) => batchClaim(n, {}, 1)));
    // the first worker stops during its first pass: the attempt ends, the batch stays processing
    const stopped = new AbortController();
    stopped.abort();
    await assert.rejects(job.handle({ batchId }, contextWith(stopped.signal)), /worker stopped/);
    assert.equal((await batchRepo.findForWorker(ctx.db, batchId))?.status, "processing");
    // the next worker starts over and completes it
    await job.handle({ batchId }, contextWith(new AbortController().signal));
    const status = await waitForBatch(ctx.app, token, batchId);
    assert.deepEqual([status.status, status.processed_claims], ["completed", 25_000]);
    // on PostgreSQL another test process's worker may have run an attempt too: one attempt's pages remain
    const pages = await ctx.db.query<{ n: number; attempts: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT attempt)::int AS attempts FROM claims_batch_results
       WHERE batch_id = $1 AND view = 'all'`,
      [batchId],
    );
    assert.deepEqual([pages[0]?.n, pages[0]?.attempts], [25, 1], "each page once, of one attempt");
    const events = (await listEvents(ctx.db, ctx.tenant.id)).filter((e) => e.data.batch_id === batchId);
    assert.equal(events.filter((e) => e.event_type === "batch.processing").length, 1);
    assert.equal(events.filter((e) => e.event_type === "batch.completed").length, 1);
    assert.ok(!existsSync(join(settings.spoolDir, `${batchId}.parts`)), "the spool is gone");
  });

  /** the batch's stored pages once analysed with these settings, the batch's id and time of analysis masked */
  const storedWith = async (claims: object[], overrides: Partial<typeof settings>) => {
    const { batchId } = await submit(claims);
    await batchAnalysisJob({ ...settings, ...overrides }).handle(
      { batchId },
      contextWith(new AbortController().signal),
    );
    const rows = await ctx.db.query<{
      view: string;
      page: number;
      claims: number;
      items: number;
      data: Buffer;
    }>(
      `SELECT view, page, claims, items, data FROM claims_batch_results WHERE batch_id = $1 ORDER BY view, page`,
      [batchId],
    );
    // the batch's id and time of analysis are in its reasons: the rest must not differ
    return rows.map(({ data, ...page }) => ({
      ...page,
      json: gunzipSync(data)
        .toString("utf8")
        .replaceAll(batchId, "BATCH")
        .replace(/"createdAt":"[^"]*"/g, '"createdAt":"T"'),
    }));
  };

  it("stores the same pages whether a thread of their own or the analysis's thread writes them", async () => {
    // every 7th claim's service predates its insurance: rejected, with reasons
    const claims = Array.from({ length: 1_500 }, (_, n) =>
      n % 7 === 0 ? batchClaim(n, { insurance_start_date: "2026-04-01" }) : batchClaim(n),
    );
    const here = await storedWith(claims, { resultsThreadClaims: 1_000_000_000 });
    const inThread = await storedWith(claims, { resultsThreadClaims: 0 });
    assert.deepEqual(inThread, here);
    assert.deepEqual([...new Set(here.map((page) => page.view))].sort(), [
      "all",
      "approved",
      "members",
      "providers",
      "rejected",
    ]);
    assert.equal(here.filter((page) => page.view === "all").length, 2);
    assert.match(here.find((page) => page.view === "rejected")?.json ?? "", /"reasons":\[\{"id":"BATCH:/);
  });

  it("stores the same pages whether the detectors run on the analysis's thread or over two", async () => {
    // every 50th claim sent twice under another id (exact duplicates, a rule the second thread runs), every
    // 40th billing a price far above its service's (an outlier the second thread finds)
    const claims = Array.from({ length: 1_200 }, (_, n) => {
      if (n % 50 === 49) return { ...batchClaim(n - 1), claim_id: `C-${n}-AGAIN` };
      return n % 40 === 0
        ? batchClaim(n, { claim_items: [{ ...batchClaim(n).claim_items[0], claimed_amount: 90_000 }] })
        : batchClaim(n);
    });
    const onOne = await storedWith(claims, { detectorsThreadClaims: 1_000_000_000 });
    const onTwo = await storedWith(claims, { detectorsThreadClaims: 0 });
    assert.deepEqual(onTwo, onOne);
    const all = onOne
      .filter((page) => page.view === "all")
      .map((page) => page.json)
      .join("");
    assert.match(all, /"code":"NDC069","description":"Duplicate of an earlier claim"/);
    assert.match(all, /"code":"FWA-PRICE-01"/);
  });

  it("echoes ids in any script byte for byte, in every view of the results", async () => {
    const arabic = batchClaim(1, { claim_id: 'مطالبة ✓ "١"' });
    const { token, batchId } = await submit([arabic, batchClaim(2)]);
    await job.handle({ batchId }, contextWith(new AbortController().signal));
    await waitForBatch(ctx.app, token, batchId);
    for (const query of ["", "?filter=approved"]) {
      const page = await claimsCall(ctx.app, token, {
        method: "GET",
        url: `/v1/claims/batch/${batchId}/results${query}`,
      });
      const claim = page.json().claims[0];
      assert.deepEqual(
        [claim.claim_id, claim.erp_claim_id, claim.claim_items[0].erp_claim_item_id],
        ['مطالبة ✓ "١"', 'مطالبة ✓ "١"', "C-1-I0"],
        query,
      );
    }
  });

  it("fails a batch visibly, with PROCESSING_ERROR and batch.failed, when its attempts run out", async () => {
    const { token, batchId } = await submit([batchClaim(1)]);
    mkdirSync(settings.spoolDir, { recursive: true });
    writeFileSync(join(settings.spoolDir, `${batchId}.parts`), "{not json\n");
    const error = await job
      .handle({ batchId }, contextWith(new AbortController().signal))
      .catch((e: unknown) => e);
    assert.ok(error instanceof Error);
    await job.giveUp({ batchId }, error, contextWith(new AbortController().signal));
    const status = await waitForBatch(ctx.app, token, batchId);
    assert.deepEqual([status.status, status.error_code], ["failed", "PROCESSING_ERROR"]);
    const failed = (await listEvents(ctx.db, ctx.tenant.id)).find(
      (e) => e.data.batch_id === batchId && e.event_type === "batch.failed",
    );
    assert.equal(failed?.data.error_code, "PROCESSING_ERROR");
    const results = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${batchId}/results`,
    });
    assert.equal(results.statusCode, 200);
    assert.deepEqual([results.json().status, results.json().claims], ["failed", []]);
  });

  it("tells the tenant a code and a reference, never the error's text, which the log keeps", async () => {
    // a corrupted spool, a missing one, and an error naming a file with its stack
    const cases = [
      async (batchId: string) =>
        writeFileSync(join(settings.spoolDir, `${batchId}.parts`), '{"claim_id": /var/lib/mizan\n'),
      async (batchId: string) => rmSync(join(settings.spoolDir, `${batchId}.parts`), { force: true }),
      undefined,
    ];
    for (const damage of cases) {
      const { token, batchId } = await submit([batchClaim(1)]);
      mkdirSync(settings.spoolDir, { recursive: true });
      let error: unknown = new Error(
        `EACCES: permission denied, open '${settings.spoolDir}/${batchId}.ndjson'`,
      );
      if (damage !== undefined) {
        await damage(batchId);
        error = await job.handle({ batchId }, contextWith(new AbortController().signal)).catch((e) => e);
      }
      assert.ok(error instanceof Error);
      const { entries, log } = capturingLog();
      await job.giveUp({ batchId }, error, { ...contextWith(new AbortController().signal), log });

      const status = await waitForBatch(ctx.app, token, batchId);
      assert.equal(status.error_code, "PROCESSING_ERROR");
      assert.match(status.error, /^The analysis failed; reference [0-9a-f-]{36}$/);
      const reference = status.error.split(" ").at(-1);
      const event = (await listEvents(ctx.db, ctx.tenant.id)).find(
        (e) => e.data.batch_id === batchId && e.event_type === "batch.failed",
      );
      assert.deepEqual(
        [event?.data.error, event?.data.error_code, event?.data.error_reference],
        [status.error, "PROCESSING_ERROR", reference],
      );
      const told = JSON.stringify([status, event?.data]);
      for (const secret of [error.message, settings.spoolDir, ".parts", "MIZAN_SPOOL_DIR", "    at "])
        assert.ok(!told.includes(secret), `${JSON.stringify(secret)} reached the tenant: ${told}`);
      // the operator's log has the error itself, under the same reference
      const logged = entries.find((entry) => entry.reference === reference);
      assert.equal(logged?.err, error);
      assert.equal(logged?.batch, batchId);
    }
  });
});
