import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import {
  consultation,
  createRequest,
  expectError,
  expectStatus,
  labTest,
  setUpStandard,
} from "./fixtures.js";

const update = (tenant: TenantClient, transactionId: string, body: Record<string, unknown>) =>
  tenant.call("PATCH", `/approval-request/update/${transactionId}`, { erp_reviewer_id: "rev1", ...body });
const reopen = (tenant: TenantClient, transactionId: string, username = "rev1") =>
  tenant.call("PATCH", `/approval-request/reopen/${transactionId}`, {
    nphies_reopen_reason: "CORRECTION",
    nphies_reopen_at: "2026-03-12T10:00:00.000Z",
    username,
  });
const cancel = (tenant: TenantClient, transactionId: string) =>
  tenant.call("PATCH", `/approval-request/cancel/${transactionId}`);
const getOne = (tenant: TenantClient, transactionId: string) =>
  expectStatus(tenant.call("GET", `/approval-request/get-one/${transactionId}`), 200);

/** a fresh request on its own date (no item is a duplicate of another test's) */
let day = 0;
async function fresh(tenant: TenantClient, overrides: Record<string, unknown> = {}) {
  day += 1;
  const date = new Date(Date.UTC(2026, 0, 2) + day * 35 * 86_400_000).toISOString();
  return createRequest(tenant, { treatment_date: date, request_date: date, ...overrides });
}

async function utilized(tenant: TenantClient): Promise<number> {
  const body = await expectStatus(
    tenant.call("GET", "/policy/patient/consumption/get?ph_erp_id=PH1&policy_no=POL1&member_id=M1"),
    200,
  );
  return body.amount_utilized;
}

describe("prior authorization workflow", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpStandard(tenant);
  });
  after(() => ctx.close());

  it("follows its transition matrix", async () => {
    const { body } = await fresh(tenant, { items: [labTest({ claimed_amount: 10 })] });
    const tx = body.transaction_id;
    // a final status moves only through a reopen
    await expectStatus(update(tenant, tx, { status: "ACCEPTED" }), 200);
    for (const status of ["ACCEPTED", "PARTIALLY_ACCEPTED", "REJECTED", "REFERRED"])
      await expectError(update(tenant, tx, { status, referral_cchi_code: "CCHI-9" }), 422, "E_EPA_15");
    await expectStatus(reopen(tenant, tx), 200);
    assert.equal((await getOne(tenant, tx)).status, "PENDING");
    // a PENDING request is not reopened
    await expectError(reopen(tenant, tx), 422, "E_EPA_15");
    // REFERRED needs its CCHI code, and may still move to a final status, not to REFERRED again
    await expectError(update(tenant, tx, { status: "REFERRED" }), 422, "E_EPA_16");
    await expectStatus(
      update(tenant, tx, {
        status: "REFERRED",
        referral_cchi_code: "CCHI-9",
        referral_valid_days: 30,
        refferal_remarks: "to a specialist",
      }),
      200,
    );
    await expectError(
      update(tenant, tx, { status: "REFERRED", referral_cchi_code: "CCHI-8" }),
      422,
      "E_EPA_15",
    );
    await expectStatus(update(tenant, tx, { status: "PARTIALLY_ACCEPTED" }), 200);
    await expectStatus(cancel(tenant, tx), 200);
    await expectError(cancel(tenant, tx), 409, "E_EPA_17");
    await expectError(update(tenant, tx, { status: "ACCEPTED" }), 422, "E_EPA_15");
    await expectError(reopen(tenant, tx), 422, "E_EPA_15");
    const one = await getOne(tenant, tx);
    assert.equal(one.status, "CANCELLED");
    assert.equal(one.referral_cchi_code, "CCHI-9");
    assert.equal(one.referral_remarks, "to a specialist");
    assert.deepEqual(
      one.history.map((h: { action: string; from_status: string | null; to_status: string }) => [
        h.action,
        h.from_status,
        h.to_status,
      ]),
      [
        ["create", null, "PENDING"],
        ["update", "PENDING", "ACCEPTED"],
        ["reopen", "ACCEPTED", "PENDING"],
        ["update", "PENDING", "REFERRED"],
        ["update", "REFERRED", "PARTIALLY_ACCEPTED"],
        ["cancel", "PARTIALLY_ACCEPTED", "CANCELLED"],
      ],
    );
    assert.equal(one.engine_runs, 2, "the reopen ran the engine again");
    assert.deepEqual(await auditActions(ctx.db, tenant.id, "prior-authorization", tx), [
      "prior-authorization.create",
      "prior-authorization.update",
      "prior-authorization.reopen",
      "prior-authorization.update",
      "prior-authorization.update",
      "prior-authorization.cancel",
    ]);
  });

  it("applies the reviewer's item decisions, and utilization follows them", async () => {
    const before = await utilized(tenant);
    const { body } = await fresh(tenant);
    assert.equal(await utilized(tenant), before + 300);
    await expectStatus(
      update(tenant, body.transaction_id, {
        status: "PARTIALLY_ACCEPTED",
        approval_remarks: "lab test not indicated",
        items: [
          { erp_item_id: "I2", status: "REJECTED", reasons: [{ code: "NDC044", message: "not indicated" }] },
          { erp_item_id: "I1", status: "ACCEPTED", approved_amount: 150 },
        ],
      }),
      200,
    );
    const one = await getOne(tenant, body.transaction_id);
    const [cons, lab] = one.items;
    assert.deepEqual(
      [cons.reviewer_status, cons.approved_amount, cons.price_rejected_amount, cons.rejected_amount],
      ["ACCEPTED", 150, 50, 50],
    );
    assert.deepEqual(
      [lab.reviewer_status, lab.approved, lab.approved_amount, lab.rejected_amount],
      ["REJECTED", false, 0, 100],
    );
    assert.deepEqual(lab.reviewer_reasons, [{ code: "NDC044", message: "not indicated" }]);
    assert.equal(await utilized(tenant), before + 150);

    // a REJECTED request rejects every item; a cancelled one counts for nothing
    const second = await fresh(tenant);
    await expectStatus(update(tenant, second.body.transaction_id, { status: "REJECTED" }), 200);
    assert.equal(await utilized(tenant), before + 150);
    const third = await fresh(tenant);
    assert.equal(await utilized(tenant), before + 450);
    await expectStatus(cancel(tenant, third.body.transaction_id), 200);
    assert.equal(await utilized(tenant), before + 150);
  });

  it("answers each error of the update, code by code, and changes nothing", async () => {
    const { body } = await fresh(tenant, {
      items: [consultation(), labTest({ benefit_code: 77, erp_item_id: "B77" })],
    });
    const tx = body.transaction_id;
    await expectError(update(tenant, "NO-SUCH-TX", { status: "ACCEPTED" }), 404, "E_EPA_09");
    await expectError(update(tenant, tx, { status: "ACCEPTED", erp_reviewer_id: "nobody" }), 404, "E_EPA_10");
    await expectError(
      update(tenant, tx, { status: "ACCEPTED", items: [{ erp_item_id: "NOPE", status: "ACCEPTED" }] }),
      404,
      "E_EPA_11",
    );
    await expectError(
      update(tenant, tx, {
        status: "ACCEPTED",
        items: [{ erp_item_id: "I1", status: "REJECTED", reasons: [{ code: "XYZ-1" }] }],
      }),
      404,
      "E_EPA_14",
    );
    // the lab item names benefit 77, which the member's category lacks
    await expectError(
      update(tenant, tx, { status: "ACCEPTED", items: [{ erp_item_id: "B77", status: "ACCEPTED" }] }),
      404,
      "E_EPA_12",
    );
    const res = await update(tenant, tx, {
      status: "ACCEPTED",
      items: [{ erp_item_id: "I1", status: "ACCEPTED", approved_amount: 999 }],
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().details.join(" "), /items\[0\]\.approved_amount must not exceed/);
    await expectError(update(tenant, tx, { status: "DONE" }), 400, "E_BAD_REQUEST_400");
    await expectError(
      update(tenant, tx, { status: "ACCEPTED", referral_valid_days: 400 }),
      400,
      "E_BAD_REQUEST_400",
    );
    const one = await getOne(tenant, tx);
    assert.equal(one.status, "PENDING");
    assert.equal(one.history.length, 1);
    assert.equal(one.items[0].reviewer_status, null);
  });

  it("answers 404 for an unknown request or user on every operation", async () => {
    const { body } = await fresh(tenant, { items: [labTest({ claimed_amount: 10 })] });
    await expectError(reopen(tenant, "NO-SUCH-TX"), 404, "E_EPA_09");
    await expectError(cancel(tenant, "NO-SUCH-TX"), 404, "E_EPA_09");
    await expectError(tenant.call("GET", "/approval-request/get-one/NO-SUCH-TX"), 404, "E_EPA_09");
    await expectStatus(update(tenant, body.transaction_id, { status: "ACCEPTED" }), 200);
    await expectError(reopen(tenant, body.transaction_id, "nobody"), 404, "E_EPA_10");
    const sync = {
      response_bundle_id: "BUNDLE-1",
      response_bundle_status: "COMPLETED",
      response_bundle_date: "2026-03-11T08:00:00.000Z",
    };
    await expectError(
      tenant.call("PATCH", "/approval-request/bundle/sync/NO-SUCH-TX", sync),
      404,
      "E_EPA_09",
    );
    await expectError(
      tenant.call("PATCH", `/approval-request/bundle/sync/${body.transaction_id}`, {
        ...sync,
        response_bundle_status: "X",
      }),
      400,
      "E_BAD_REQUEST_400",
    );
    await expectStatus(
      tenant.call("PATCH", `/approval-request/bundle/sync/${body.transaction_id}`, sync),
      200,
    );
    const one = await getOne(tenant, body.transaction_id);
    assert.deepEqual(
      [one.status, one.response_bundle_id, one.response_bundle_status, one.response_bundle_date],
      ["ACCEPTED", "BUNDLE-1", "COMPLETED", "2026-03-11T08:00:00.000Z"],
    );
    // another tenant never sees it
    const other = await ctx.newTenant();
    await expectError(other.call("GET", `/approval-request/get-one/${body.transaction_id}`), 404, "E_EPA_09");
    await expectError(cancel(other, body.transaction_id), 404, "E_EPA_09");
  });

  it("cancel accepts a JSON content type with no body", async () => {
    const { body } = await fresh(tenant, { items: [labTest({ claimed_amount: 10 })] });
    const res = await ctx.app.inject({
      method: "PATCH",
      url: `/${tenant.name}/v4.0/health/approval-request/cancel/${body.transaction_id}`,
      headers: { "access-key": tenant.apiKey, "content-type": "application/json" },
    });
    assert.equal(res.statusCode, 200, res.body);
  });
});
