import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import {
  consultation,
  createRequest,
  expectError,
  expectStatus,
  labTest,
  nphiesOf,
  requestBody,
  setUpStandard,
} from "./fixtures.js";

type ItemResult = {
  service_code: string;
  item_erp_id: string | null;
  approved: boolean;
  approved_quantity: number;
  decision: string;
  request_amount: number;
  approved_amount: number;
  price_rejected_amount: number;
  rejected_amount: number;
  net_payable: number;
  rejection_reason: { code: string; nphies_code: string | null; message: string }[];
};

async function consumption(tenant: TenantClient) {
  return expectStatus(
    tenant.call("GET", "/policy/patient/consumption/get?ph_erp_id=PH1&policy_no=POL1&member_id=M1"),
    200,
  );
}

describe("prior authorization create, standard mode", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpStandard(tenant);
  });
  after(() => ctx.close());

  it("adjudicates each item with exact amounts and reasons, and utilization follows", async () => {
    const { body, created } = await createRequest(tenant);
    assert.equal(typeof created.pre_auth_internal_id, "number");
    assert.equal(created.status, "COMPLETED");
    assert.equal(created.transaction_id, body.transaction_id);
    assert.equal(created.authorization_number, "AUTH-1");
    assert.equal(typeof created.note, "string");
    assert.ok(Array.isArray(created.request_alerts));
    const [cons, lab] = created.items_results as ItemResult[];
    // the consultation was claimed at 250 against a contract price of 200
    assert.deepEqual(
      {
        approved: cons?.approved,
        decision: cons?.decision,
        approved_quantity: cons?.approved_quantity,
        request: cons?.request_amount,
        approved_amount: cons?.approved_amount,
        price_rejected: cons?.price_rejected_amount,
        rejected: cons?.rejected_amount,
        net: cons?.net_payable,
      },
      {
        approved: true,
        decision: "PARTIALLY_APPROVED",
        approved_quantity: 1,
        request: 250,
        approved_amount: 200,
        price_rejected: 50,
        rejected: 0,
        net: 200,
      },
    );
    assert.deepEqual(nphiesOf(cons), ["NDC079"]);
    assert.match(cons?.rejection_reason[0]?.message ?? "", /250\.00.*200\.00/);
    assert.deepEqual(
      [lab?.approved, lab?.decision, lab?.approved_amount, lab?.rejected_amount, lab?.rejection_reason],
      [true, "APPROVED", 100, 0, []],
    );

    const used = await consumption(tenant);
    assert.equal(used.amount_utilized, 300);
    assert.deepEqual(
      used.benefit_consumption.map((b: { benefit_code: number; utilized: number }) => [
        b.benefit_code,
        b.utilized,
      ]),
      [
        [1, 200],
        [2, 100],
      ],
    );
    assert.equal(used.sub_benefit_consumption[0].utilized, 200);
    assert.deepEqual(await auditActions(ctx.db, tenant.id, "prior-authorization", body.transaction_id), [
      "prior-authorization.create",
    ]);
  });

  it("cuts an item to the remaining limit (NDC017) and rejects it once the limit is used up (NDC036)", async () => {
    // months apart, so that no item is a duplicate of an earlier one
    const { created } = await createRequest(tenant, {
      treatment_date: "2026-05-10T09:00:00.000Z",
      items: [labTest({ claimed_quantity: 9, erp_item_id: "L9" })],
    });
    const [lab] = created.items_results as ItemResult[];
    // benefit 2 has 1,000; the first test used 100: 900 remain of the 900 asked
    assert.deepEqual([lab?.decision, lab?.approved_amount], ["APPROVED", 900]);
    const over = await createRequest(tenant, {
      treatment_date: "2026-07-10T09:00:00.000Z",
      items: [labTest({ erp_item_id: "L10" })],
    });
    const [rejected] = over.created.items_results as ItemResult[];
    assert.deepEqual(
      [rejected?.approved, rejected?.approved_amount, rejected?.rejected_amount],
      [false, 0, 100],
    );
    assert.deepEqual(nphiesOf(rejected), ["NDC036"]);
  });

  it("rejects the items of a provider outside the member's network (NDC035), unless it is an emergency", async () => {
    const outside = await createRequest(tenant, {
      medical_provider_cchi_no: "CCHI-2",
      items: [consultation({ claimed_amount: 200 })],
    });
    const [item] = outside.created.items_results as ItemResult[];
    assert.equal(item?.approved, false);
    assert.ok(nphiesOf(item).includes("NDC035"), JSON.stringify(item));
    const emergency = await createRequest(tenant, {
      medical_provider_cchi_no: "CCHI-2",
      is_emergency: true,
      claim_sub_type: "EMERGENCY",
      items: [consultation({ claimed_amount: 200, service_code: "ER-1", sub_benefit_code: undefined })],
    });
    const [er] = emergency.created.items_results as ItemResult[];
    assert.ok(!nphiesOf(er).includes("NDC035"), JSON.stringify(er));
  });

  it("rejects every item of a member outside the coverage dates (NDC034)", async () => {
    const { created } = await createRequest(tenant, { treatment_date: "2025-12-15T10:00:00.000Z" });
    for (const item of created.items_results as ItemResult[]) {
      assert.equal(item.approved, false);
      assert.ok(nphiesOf(item).includes("NDC034"), JSON.stringify(item));
    }
  });

  it("rejects an item whose benefit the member's category lacks (NDC003)", async () => {
    const { created } = await createRequest(tenant, {
      items: [labTest({ benefit_code: 77, erp_item_id: "B77" })],
    });
    const [item] = created.items_results as ItemResult[];
    assert.equal(item?.approved, false);
    assert.ok(nphiesOf(item).includes("NDC003"), JSON.stringify(item));
  });

  it("rejects a diagnosis inconsistent with the member's gender (NDC053)", async () => {
    // N40 (benign prostatic hyperplasia) for a female member
    const { created } = await createRequest(tenant, { diagnoses: [{ type: "primary", code: "N40.0" }] });
    for (const item of created.items_results as ItemResult[]) assert.ok(nphiesOf(item).includes("NDC053"));
  });

  it("answers 404 for each missing reference, in the spec's codes, and stores nothing", async () => {
    for (const [overrides, code] of [
      [{ member_id: "NOBODY" }, "E_EPA_01"],
      [{ ph_erp_id: "NO-PH" }, "E_EPH_01"],
      [{ policy_no: "NO-POL" }, "E_EPA_014"],
      [{ medical_provider_cchi_no: "NO-CCHI" }, "E_EMP_01"],
      [
        {
          diagnoses: [
            { type: "primary", code: "J06.9" },
            { type: "secondary", code: "X99.ZZZZZ" },
          ],
        },
        "E_EPA_02",
      ],
    ] as const) {
      const body = requestBody(overrides);
      await expectError(tenant.call("POST", "/approval-request/create", body), 404, code);
      await expectError(
        tenant.call("GET", `/approval-request/get-one/${body.transaction_id}`),
        404,
        "E_EPA_09",
      );
    }
  });

  it("refuses bad input with 400 naming the field", async () => {
    for (const [overrides, field] of [
      [{ diagnoses: [{ type: "secondary", code: "J06.9" }] }, /exactly one primary/],
      [
        {
          diagnoses: [
            { type: "primary", code: "J06.9" },
            { type: "primary", code: "J02.9" },
          ],
        },
        /exactly one primary/,
      ],
      [{ items: [] }, /items/],
      [{ diagnoses: [] }, /diagnoses/],
      [{ member_gender: "OTHER" }, /member_gender/],
      [{ treatment_date: "2026-03-10" }, /treatment_date/],
      [{ claim_type: "HOME" }, /claim_type/],
      [{ items: [consultation({ claimed_quantity: 0 })] }, /items\[0\]\.claimed_quantity/],
      [{ items: [consultation({ claimed_amount: 10.555 })] }, /items\[0\]\.claimed_amount/],
      [{ items: [consultation({ nphies_type: "SURGERY" })] }, /items\[0\]\.nphies_type/],
      [{ transaction_id: "has space" }, /transaction_id/],
      [
        {
          items: [
            consultation({
              admission_date: "2026-03-10T00:00:00.000Z",
              discharge_date: "2026-03-09T00:00:00.000Z",
            }),
          ],
        },
        /items\[0\]\.discharge_date/,
      ],
    ] as const) {
      const res = await tenant.call("POST", "/approval-request/create", requestBody(overrides));
      assert.equal(res.statusCode, 400, JSON.stringify(overrides));
      assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
      assert.match(res.json().details.join(" "), field, JSON.stringify(overrides));
    }
    const anonymous = await ctx.app.inject({
      method: "POST",
      url: `/${tenant.name}/v4.0/health/approval-request/create`,
      payload: requestBody(),
    });
    assert.equal(anonymous.statusCode, 401);
  });

  it("takes transaction_id once: 409 E_EPA_069, and one 201 of ten concurrent duplicates", async () => {
    const { body } = await createRequest(tenant, {
      items: [labTest({ claimed_amount: 1, erp_item_id: "D1" })],
    });
    await expectError(tenant.call("POST", "/approval-request/create", body), 409, "E_EPA_069");
    const racing = requestBody({ items: [labTest({ claimed_amount: 1, erp_item_id: "R1" })] });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => tenant.call("POST", "/approval-request/create", racing)),
    );
    assert.deepEqual(
      answers.map((res) => res.statusCode).sort(),
      [201, 409, 409, 409, 409, 409, 409, 409, 409, 409],
    );
    const rows = await ctx.db.query(
      "SELECT 1 FROM prior_authorizations WHERE tenant_id = $1 AND transaction_id = $2",
      [tenant.id, racing.transaction_id],
    );
    assert.equal(rows.length, 1);
  });

  it("stores inline supporting info and shows the whole request in get-one", async () => {
    const { body } = await createRequest(tenant, {
      treatment_date: "2026-09-10T09:00:00.000Z",
      supporting_info: [
        {
          sequence_number: 1,
          code: "CHIEF_COMPLAINT",
          value: "Sore throat for three days",
          start_date: "2026-03-07T00:00:00.000Z",
          end_date: "2026-03-10T00:00:00.000Z",
        },
      ],
    });
    const one = await expectStatus(
      tenant.call("GET", `/approval-request/get-one/${body.transaction_id}`),
      200,
    );
    assert.equal(one.status, "PENDING");
    assert.equal(one.transaction_id, body.transaction_id);
    assert.equal(one.member_id, "M1");
    assert.deepEqual(one.diagnoses, body.diagnoses);
    assert.equal(one.items.length, 2);
    assert.equal(one.items[0].service_code, "CONS-1");
    assert.equal(one.items[0].approved_amount, 200);
    assert.equal(one.items[0].reasons[0].nphies_code, "NDC079");
    assert.equal(one.supporting_info.length, 1);
    assert.equal(one.supporting_info[0].code, "CHIEF_COMPLAINT");
    assert.deepEqual(
      one.history.map((h: { action: string; to_status: string }) => [h.action, h.to_status]),
      [["create", "PENDING"]],
    );
  });

  it("stores each item's service type, which the member's later requests are checked against", async () => {
    const { created } = await createRequest(tenant, { treatment_date: "2026-09-25T09:00:00.000Z" });
    const stored = await ctx.db.query<{ service_code: string; service_type: string | null }>(
      `SELECT service_code, service_type FROM prior_authorization_items
       WHERE prior_authorization_id = $1 ORDER BY item_index`,
      [created.pre_auth_internal_id],
    );
    assert.deepEqual(stored, [
      { service_code: "CONS-1", service_type: "CONSULTATION" },
      { service_code: "LAB-1", service_type: "AMBULATORY" },
    ]);
  });

  it("records each diagnosis-service pair it shows once, for the rare-pair signal of later requests", async () => {
    const tenantPairs = () =>
      ctx.db.query<{ diagnosis: string; service_code: string }>(
        "SELECT diagnosis, service_code FROM diagnosis_service_pairs WHERE tenant_id = $1 ORDER BY 1, 2",
        [tenant.id],
      );
    const other = await ctx.newTenant("lightweight");
    const before = await tenantPairs();
    // two items of one service code: one pair
    await createRequest(tenant, {
      treatment_date: "2026-09-20T09:00:00.000Z",
      diagnoses: [{ type: "primary", code: "J02.9", name: "Acute pharyngitis" }],
      items: [consultation(), consultation({ erp_item_id: "I9" }), labTest()],
    });
    // the diagnosis as the engine keys it, without its dot
    const pairs = (await tenantPairs()).filter((pair) => pair.diagnosis === "J029");
    assert.deepEqual(pairs, [
      { diagnosis: "J029", service_code: "CONS-1" },
      { diagnosis: "J029", service_code: "LAB-1" },
    ]);
    await createRequest(tenant, {
      treatment_date: "2026-09-21T09:00:00.000Z",
      diagnoses: [{ type: "primary", code: "J02.9", name: "Acute pharyngitis" }],
    });
    assert.equal((await tenantPairs()).length, before.length + 2, "a pair already known is not added again");
    const others = await ctx.db.query("SELECT 1 FROM diagnosis_service_pairs WHERE tenant_id = $1", [
      other.id,
    ]);
    assert.equal(others.length, 0, "another tenant's pairs are its own");
  });
});

describe("prior authorization create, lightweight mode", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("needs no reference data: the member and the policy are created on the fly", async () => {
    const tenant = await ctx.newTenant("lightweight");
    const { created } = await createRequest(tenant, {
      member_id: "LW-1",
      policy_no: "LW-POL",
      ph_erp_id: "default",
      medical_provider_cchi_no: "UNKNOWN-CLINIC",
      items: [consultation({ benefit_description: "Outpatient", sub_benefit_description: "Consultations" })],
    });
    const [item] = created.items_results as ItemResult[];
    // no price list: no contractual rejection; no coverage checks
    assert.deepEqual([item?.approved, item?.approved_amount, item?.rejection_reason], [true, 250, []]);
    const member = await expectStatus(tenant.call("GET", "/member/LW-1"), 200);
    assert.equal(member.gender, "FEMALE");
    const template = await expectStatus(
      tenant.call("GET", "/policy/template?ph_erp_id=default&policy_no=LW-POL"),
      200,
    );
    assert.equal(template.categories[0].category_code, "LIGHTWEIGHT");
    assert.equal(template.categories[0].benefits[0].benefit_description, "Outpatient");
    assert.equal(template.categories[0].benefits[0].sub_benefits[0].sub_benefit_code, 11);

    // an existing member is kept as it is, and differing demographics raise an alert
    const second = await createRequest(tenant, {
      member_id: "LW-1",
      policy_no: "LW-POL",
      ph_erp_id: "default",
      member_dob: "1991-01-01T00:00:00.000Z",
      items: [labTest()],
    });
    assert.ok(
      second.created.request_alerts.some((alert: string) =>
        alert.startsWith("Member information inconsistency"),
      ),
      JSON.stringify(second.created.request_alerts),
    );
    assert.equal((await tenant.call("GET", "/member/LW-1")).json().date_of_birth, "1990-05-01T00:00:00.000Z");
  });

  it("still checks diagnoses (404 E_EPA_02) and clinical rules", async () => {
    const tenant = await ctx.newTenant("lightweight");
    await expectError(
      tenant.call(
        "POST",
        "/approval-request/create",
        requestBody({ diagnoses: [{ type: "primary", code: "123" }] }),
      ),
      404,
      "E_EPA_02",
    );
    const { created } = await createRequest(tenant, {
      member_gender: "MALE",
      member_id: "LW-MALE",
      diagnoses: [{ type: "primary", code: "O80" }],
    });
    for (const item of created.items_results as ItemResult[]) assert.ok(nphiesOf(item).includes("NDC053"));
  });
});

describe("a claim billed under its prior authorization", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("is not its duplicate, and replaces its use of the limits", async () => {
    const tenant = await ctx.newTenant();
    await setUpStandard(tenant);
    await createRequest(tenant, { authorization_number: "AUTH-C" });
    assert.equal((await consumption(tenant)).amount_utilized, 300);
    const { created } = await createRequest(tenant, {
      authorization_number: "AUTH-C",
      transaction_type: "CLAIM",
    });
    assert.deepEqual(
      (created.items_results as ItemResult[]).map((item) => [item.decision, item.approved_amount]),
      [
        ["PARTIALLY_APPROVED", 200],
        ["APPROVED", 100],
      ],
    );
    assert.equal(
      (await consumption(tenant)).amount_utilized,
      300,
      "the claim counts instead of its prior authorization",
    );
  });
});
