import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { purgeLightweightRequests } from "../../../src/modules/prior-auth/retention.js";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";
import {
  consultation,
  createRequest,
  expectError,
  expectStatus,
  labTest,
  nphiesOf,
} from "../prior-auth/fixtures.js";

describe("engine settings, diagnosis edits and lightweight retention", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("holds an outlier for the reviewer above the tenant's threshold, and the reviewer can accept it", async () => {
    const tenant = await ctx.newTenant("lightweight");
    const defaults = await expectStatus(tenant.call("GET", "/settings/prior-auth"), 200);
    assert.deepEqual(
      [
        defaults.auto_approval_threshold,
        defaults.follow_up_days,
        defaults.duplicate_window_days,
        defaults.lightweight_retention_days,
      ],
      [0.7, 14, 30, 30],
    );
    await expectStatus(tenant.call("POST", "/user/create", { username: "rev1" }), 201);
    // peers: six members approved for LAB-1 at about 100
    for (const [n, amount] of [100, 95, 105, 100, 98, 102].entries()) {
      await createRequest(tenant, { member_id: `PEER-${n}`, items: [labTest({ claimed_amount: amount })] });
    }
    const outlier = await createRequest(tenant, {
      member_id: "OUT-1",
      items: [labTest({ claimed_amount: 1200 })],
    });
    const [held] = outlier.created.items_results;
    assert.equal(held.decision, "PENDING_REVIEW", JSON.stringify(held));
    assert.equal(held.approved, false);
    assert.ok(held.svc_ai_score >= 0.7, `${held.svc_ai_score}`);
    assert.match(held.svc_ai_alert, /median/);
    await expectStatus(
      tenant.call("PATCH", `/approval-request/update/${outlier.body.transaction_id}`, {
        status: "ACCEPTED",
        erp_reviewer_id: "rev1",
      }),
      200,
    );
    const one = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${outlier.body.transaction_id}`),
      200,
    );
    assert.deepEqual([one.items[0].approved, one.items[0].approved_amount], [true, 1200]);

    // with the threshold raised to 1, the same outlier is approved
    const raised = await expectStatus(
      tenant.call("PATCH", "/settings/prior-auth", { auto_approval_threshold: 1 }),
      200,
    );
    assert.equal(raised.auto_approval_threshold, 1);
    const approved = await createRequest(tenant, {
      member_id: "OUT-2",
      items: [labTest({ claimed_amount: 1200 })],
    });
    assert.equal(approved.created.items_results[0].decision, "APPROVED");
    await expectError(
      tenant.call("PATCH", "/settings/prior-auth", { auto_approval_threshold: 1.5 }),
      400,
      "E_BAD_REQUEST_400",
    );
  });

  it("keeps the tenant's FWA flag threshold for the batch screening", async () => {
    const tenant = await ctx.newTenant();
    assert.equal((await expectStatus(tenant.call("GET", "/settings/fwa"), 200)).flag_threshold, 0.5);
    for (const flag_threshold of [0, 1.2, "0.4"])
      await expectError(tenant.call("PATCH", "/settings/fwa", { flag_threshold }), 400, "E_BAD_REQUEST_400");
    const changed = await expectStatus(tenant.call("PATCH", "/settings/fwa", { flag_threshold: 0.35 }), 200);
    assert.equal(changed.flag_threshold, 0.35);
    assert.equal((await expectStatus(tenant.call("GET", "/settings/fwa"), 200)).flag_threshold, 0.35);
    // the prior-authorization settings are a separate matter, unchanged
    assert.equal(
      (await expectStatus(tenant.call("GET", "/settings/prior-auth"), 200)).auto_approval_threshold,
      0.7,
    );
    assert.deepEqual(await auditActions(ctx.db, tenant.id, "tenant-settings", "fwa"), [
      "settings.fwa.update",
    ]);
  });

  it("loads diagnosis edits that override the built-in facts", async () => {
    const tenant = await ctx.newTenant("lightweight");
    // Z3A (weeks of gestation) is female-only in the built-in facts; an edit table says nothing of R10,
    // and the loaded table makes a made-up R109 pediatric-only
    const tsv =
      "MCE_Edit_Type\tICD_Code_Type\tICD_Code\nPediatric_Only\tD\tR109\nNoncovered_Always\tP\t0W3P8ZZ\n";
    const loaded = await expectStatus(
      ctx.app.inject({
        method: "POST",
        url: `/${tenant.name}/v4.0/health/diagnosis-edits/import`,
        headers: { "access-key": tenant.apiKey, "content-type": "text/tab-separated-values" },
        payload: tsv,
      }),
      200,
    );
    assert.deepEqual([loaded.imported, loaded.skipped], [1, 1]);
    const adult = await createRequest(tenant, {
      diagnoses: [{ type: "primary", code: "R10.9" }],
      items: [consultation()],
    });
    assert.ok(
      nphiesOf(adult.created.items_results[0]).includes("NDC052"),
      JSON.stringify(adult.created.items_results[0]),
    );
    await expectError(
      ctx.app.inject({
        method: "POST",
        url: `/${tenant.name}/v4.0/health/diagnosis-edits/import`,
        headers: { "access-key": tenant.apiKey, "content-type": "text/tab-separated-values" },
        payload: "code\tsex\nR10\tF\n",
      }),
      400,
      "E_BAD_REQUEST_400",
    );
  });

  it("imports the CMS MCE edit table", {
    skip: !existsSync("../shared/data/mce-v37-edits.tsv") && "../shared/data is absent",
  }, async () => {
    const tenant = await ctx.newTenant("lightweight");
    const res = await ctx.app.inject({
      method: "POST",
      url: `/${tenant.name}/v4.0/health/diagnosis-edits/import`,
      headers: { "access-key": tenant.apiKey, "content-type": "text/tab-separated-values" },
      payload: readFileSync("../shared/data/mce-v37-edits.tsv", "utf8"),
    });
    assert.equal(res.statusCode, 200, res.body);
    // the distinct diagnosis codes of its six sex and age edit types
    assert.equal(res.json().imported, 4_530, res.body);
    // H04.531 (neonatal obstruction of the nasolacrimal duct) is Newborn_Only in the MCE table; the built-in
    // facts (the perinatal chapter) do not cover it
    const unloaded = await ctx.newTenant("lightweight");
    const newbornOnly = { diagnoses: [{ type: "primary", code: "H04.531" }], items: [consultation()] };
    const unedited = await createRequest(unloaded, newbornOnly);
    assert.ok(!nphiesOf(unedited.created.items_results[0]).includes("NDC052"));
    const { created } = await createRequest(tenant, newbornOnly);
    assert.ok(
      nphiesOf(created.items_results[0]).includes("NDC052"),
      JSON.stringify(created.items_results[0]),
    );
  });

  it("purges lightweight requests after the tenant's retention, keeping the audit log", async () => {
    const tenant = await ctx.newTenant("lightweight");
    const old = await createRequest(tenant, { member_id: "RET-1", items: [labTest()] });
    const recent = await createRequest(tenant, { member_id: "RET-2", items: [labTest()] });
    await ctx.db.query(
      "UPDATE prior_authorizations SET created_at = now() - interval '31 days' WHERE tenant_id = $1 AND transaction_id = $2",
      [tenant.id, old.body.transaction_id],
    );
    assert.ok((await purgeLightweightRequests(ctx.db, new Date())) >= 1);
    await expectError(
      tenant.call("GET", `/approval-request/get-one/${old.body.transaction_id}`),
      404,
      "E_EPA_09",
    );
    await expectStatus(tenant.call("GET", `/approval-request/get-one/${recent.body.transaction_id}`), 200);
    assert.deepEqual(await auditActions(ctx.db, tenant.id, "prior-authorization", old.body.transaction_id), [
      "prior-authorization.create",
    ]);
  });
});
