import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import { createRequest, expectError, expectStatus, labTest, setUpStandard } from "./fixtures.js";

const entry = (overrides: Record<string, unknown> = {}) => ({
  sequence_number: 2,
  code: "LAB_TEST",
  value: "HbA1c 7.9 %",
  unit: "%",
  start_date: "2026-03-01T00:00:00.000Z",
  end_date: "2026-03-01T00:00:00.000Z",
  ...overrides,
});

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
