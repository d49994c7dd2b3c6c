import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMizanClient, type MizanClient, unwrap } from "@mizan/client";
import { DEMO_TRANSACTION_IDS } from "../../../src/demo/requests.js";
import { ensureDemoTenant, seedDemo } from "../../../src/demo/seed.js";
import { silentLog, type TestContext, testConfig, uniqueName } from "../../helpers.js";
import { serveTestApp } from "./served.js";

/** the five-minute tour of the README, as a test: the demo's decisions and batch read through the client */
describe("the typed client on the demo tenant", () => {
  let ctx: TestContext;
  let mizan: MizanClient;
  let batchId: string;
  before(async () => {
    const served = await serveTestApp();
    ctx = served.ctx;
    const { tenant, credentials } = await ensureDemoTenant(ctx.db, uniqueName("demo"));
    const report = await seedDemo(
      { db: ctx.db, jobs: ctx.jobs, batches: testConfig().batches, log: silentLog, waitForBatch: true },
      tenant,
      credentials,
    );
    assert.ok(credentials && report.batch);
    batchId = report.batch.id;
    mizan = createMizanClient({
      baseUrl: served.baseUrl,
      tenant: tenant.name,
      apiKey: credentials.apiKey,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
    });
  });
  after(() => ctx.close());

  const getOne = (transactionId: string) =>
    unwrap(
      mizan.tenant.GET("/v4.0/health/approval-request/get-one/{transaction_id}", {
        params: { path: { transaction_id: transactionId } },
      }),
    ) as Promise<{ status: string; items: { decision: string }[] }>;

  it("reads every decision of the demo, and decides the held one", async () => {
    const decisions = Object.fromEntries(
      await Promise.all(
        DEMO_TRANSACTION_IDS.map(async (id) => [id, (await getOne(id)).items.map((item) => item.decision)]),
      ),
    );
    assert.ok(decisions["DEMO-APPROVED"]?.every((decision: string) => decision === "APPROVED"));
    assert.ok(decisions["DEMO-PARTIAL-PRICE"]?.includes("PARTIALLY_APPROVED"));
    assert.ok(decisions["DEMO-PARTIAL-LIMIT"]?.includes("PARTIALLY_APPROVED"));
    assert.ok(decisions["DEMO-REJECTED-CLINICAL"]?.includes("REJECTED"));
    assert.ok(decisions["DEMO-REJECTED-ELIGIBILITY"]?.every((decision: string) => decision === "REJECTED"));
    assert.ok(decisions["DEMO-HELD"]?.includes("PENDING_REVIEW"));
    await unwrap(
      mizan.tenant.PATCH("/v4.0/health/approval-request/update/{transaction_id}", {
        params: { path: { transaction_id: "DEMO-HELD" } },
        body: { status: "ACCEPTED", erp_reviewer_id: "reviewer", approval_remarks: "Checked with the lab" },
      }),
    );
    assert.equal((await getOne("DEMO-HELD")).status, "ACCEPTED");
  });

  it("pages through the demo batch's results and ranking", async () => {
    let claims = 0;
    let flagged = 0;
    for await (const claim of mizan.results(batchId, { perPage: 100 })) {
      claims++;
      if (claim.status === "flagged") flagged++;
    }
    assert.equal(claims, 318);
    assert.ok(flagged > 0);
    const first = await mizan.providers(batchId)[Symbol.asyncIterator]().next();
    assert.equal(first.done, false);
  });
});
