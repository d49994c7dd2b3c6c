import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { purgeLightweightRequests } from "../src/modules/prior-auth/retention.js";
import { auditActions, startTestApp, type TenantClient, type TestContext } from "./helpers.js";
import {
  consultation,
  createRequest,
  expectError,
  expectStatus,
  labTest,
  setUpStandard,
} from "./prior-auth-fixtures.js";

const entry = (overrides: Record<string, unknown> = {}) => ({
  sequence_number: 2,
  code: "LAB_TEST",
  value: "HbA1c 7.9 %",
  unit: "%",
  start_date: "2026-03-01T00:00:00.000Z",
  end_date: "2026-03-01T00:00:00.000Z",
  ...overrides,
});

type Reasoned = { approved: boolean; rejection_reason: { nphies_code: string | null }[] };
const nphiesOf = (item: Reasoned | undefined) =>
  (item?.rejection_reason ?? []).map((reason) => reason.nphies_code);

describe("supporting info and communications", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpStandard(tenant);
  });
  after(() => ctx.close());

  it("attaches supporting info to a prior authorization and to a claim", async () => {
    const preauth = await createRequest(tenant, { items: [labTest({ claimed_amount: 5 })] });
    const claim = await createRequest(tenant, {
      transaction_type: "CLAIM",
      treatment_date: "2026-06-01T09:00:00.000Z",
      items: [labTest({ claimed_amount: 5 })],
    });
    const added = await expectStatus(
      tenant.call("POST", "/supporting-info/create-for-preauth", {
        transaction_id: preauth.body.transaction_id,
        ...entry({
          code: "ATTACHMENT",
          value: Buffer.from("report").toString("base64"),
          file_name: "report.pdf",
        }),
      }),
      201,
    );
    assert.deepEqual([typeof added.id, added.code], ["number", 201]);
    await expectStatus(
      tenant.call("POST", "/supporting-info/create-for-claim", {
        claim_number: claim.body.transaction_id,
        code: "INFO",
        value: "discharge summary follows",
        value_url: "https://erp.example.sa/docs/1",
      }),
      201,
    );
    const one = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${claim.body.transaction_id}`),
      200,
    );
    assert.deepEqual(
      one.supporting_info.map((s: { attached_to: string; code: string; value_url: string | null }) => [
        s.attached_to,
        s.code,
        s.value_url,
      ]),
      [["CLAIM", "INFO", "https://erp.example.sa/docs/1"]],
    );
    const pre = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${preauth.body.transaction_id}`),
      200,
    );
    assert.equal(pre.supporting_info[0].file_name, "report.pdf");

    await expectError(
      tenant.call("POST", "/supporting-info/create-for-preauth", { transaction_id: "NOPE", ...entry() }),
      404,
      "E_EPA_064",
    );
    // a PREAUTH request is not a claim
    await expectError(
      tenant.call("POST", "/supporting-info/create-for-claim", {
        claim_number: preauth.body.transaction_id,
        code: "INFO",
      }),
      404,
      "E_CLAIM_001",
    );
    for (const [body, field] of [
      [{ transaction_id: preauth.body.transaction_id, ...entry({ code: "GOSSIP" }) }, /code/],
      [{ transaction_id: preauth.body.transaction_id, ...entry({ value_url: "ftp://x" }) }, /value_url/],
      [{ transaction_id: preauth.body.transaction_id, ...entry({ value: "x".repeat(1001) }) }, /value/],
      [{ transaction_id: preauth.body.transaction_id, ...entry({ sequence_number: 0 }) }, /sequence_number/],
      [{ transaction_id: preauth.body.transaction_id, ...entry({ start_date: undefined }) }, /start_date/],
      [
        { transaction_id: preauth.body.transaction_id, ...entry({ end_date: "2026-02-01T00:00:00.000Z" }) },
        /end_date/,
      ],
    ] as const) {
      const res = await tenant.call("POST", "/supporting-info/create-for-preauth", body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.match(res.json().details.join(" "), field);
    }
  });

  it("a communication returns the request to PENDING and re-evaluates it", async () => {
    const { body } = await createRequest(tenant, {
      treatment_date: "2026-08-01T09:00:00.000Z",
      items: [labTest({ claimed_amount: 5 })],
    });
    await expectStatus(
      tenant.call("PATCH", `/approval-request/update/${body.transaction_id}`, {
        status: "REJECTED",
        erp_reviewer_id: "rev1",
      }),
      200,
    );
    const sent = await expectStatus(
      tenant.call("POST", "/communication/create", {
        transaction_id: body.transaction_id,
        user_name: "dr.salem",
        title: "Lab results attached",
        content: "Please reconsider: the results justify the test.",
        path: "https://erp.example.sa/files/77",
        size: "120 KB",
        date: "2026-08-02T10:15:00+03:00",
      }),
      201,
    );
    assert.equal(typeof sent.id, "number");
    const one = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${body.transaction_id}`),
      200,
    );
    assert.equal(one.status, "PENDING");
    assert.equal(one.engine_runs, 2);
    assert.equal(
      one.items[0].approved,
      true,
      "re-evaluated: the engine's decision replaces the reviewer's rejection",
    );
    assert.equal(one.communications[0].title, "Lab results attached");
    assert.equal(one.communications[0].date, "2026-08-02T07:15:00.000Z");
    assert.deepEqual(
      one.history.map((h: { action: string }) => h.action),
      ["create", "update", "communication"],
    );
    await expectError(
      tenant.call("POST", "/communication/create", { transaction_id: "NOPE", content: "x" }),
      404,
      "E_EPA_064",
    );
    await expectError(
      tenant.call("POST", "/communication/create", {
        transaction_id: body.transaction_id,
        date: "yesterday",
      }),
      400,
      "E_BAD_REQUEST_400",
    );
    await expectStatus(tenant.call("PATCH", `/approval-request/cancel/${body.transaction_id}`), 200);
    await expectError(
      tenant.call("POST", "/communication/create", { transaction_id: body.transaction_id, content: "x" }),
      422,
      "E_EPA_15",
    );
  });
});

describe("history synchronization", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpStandard(tenant);
  });
  after(() => ctx.close());

  it("loads a member's past claims and requests, which the duplicate and follow-up checks use", async () => {
    const synced = await expectStatus(
      tenant.call("POST", "/history/claims/sync", {
        member_id: "M1",
        records: [
          {
            reference: "CLM-1",
            service_date: "2026-03-01",
            status: "PAID",
            provider_cchi_no: "CCHI-1",
            diagnosis_codes: ["J06.9"],
            items: [{ service_code: "LAB-1", service_type: "AMBULATORY", quantity: 1, unit_amount: 100 }],
          },
          {
            reference: "CLM-2",
            service_date: "2026-03-05T10:00:00.000Z",
            status: "APPROVED",
            provider_cchi_no: "CCHI-1",
            items: [{ service_code: "CONS-1", service_type: "CONSULTATION" }],
          },
        ],
      }),
      200,
    );
    assert.deepEqual([synced.received, synced.created, synced.updated], [2, 2, 0]);
    const again = await expectStatus(
      tenant.call("POST", "/history/approval-requests/sync", {
        member_id: "M1",
        records: [
          {
            reference: "PA-OLD",
            service_date: "2025-01-01",
            status: "REJECTED",
            items: [{ service_code: "X-1" }],
          },
        ],
      }),
      200,
    );
    assert.equal(again.created, 1);
    const listed = await expectStatus(tenant.call("GET", "/history/member/M1"), 200);
    assert.equal(listed.total_count, 3);
    assert.deepEqual(listed.data[0].diagnosis_codes, ["J069"]);

    // LAB-1 paid 9 days before, a consultation at the same provider 5 days before
    const { created } = await createRequest(tenant);
    const [cons, lab] = created.items_results as Reasoned[];
    assert.equal(cons?.approved, false);
    assert.ok(nphiesOf(cons).includes("NDC043"), JSON.stringify(cons));
    assert.equal(lab?.approved, false);
    assert.ok(nphiesOf(lab).includes("NDC080"), JSON.stringify(lab));

    await expectError(
      tenant.call("POST", "/history/claims/sync", {
        member_id: "M1",
        records: [
          { reference: "D", service_date: "2026-01-01", status: "PAID", items: [{ service_code: "A" }] },
          { reference: "D", service_date: "2026-01-02", status: "PAID", items: [{ service_code: "B" }] },
        ],
      }),
      400,
      "E_BAD_REQUEST_400",
    );
    await expectError(
      tenant.call("POST", "/history/claims/sync", {
        member_id: "M1",
        records: [{ reference: "E", service_date: "2026-01-01", status: "PAID", items: [] }],
      }),
      400,
      "E_BAD_REQUEST_400",
    );
  });
});

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
