import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import type { TenantClient } from "../../helpers.js";
import { createHolder, createMember, createNetwork, createPolicy } from "../policies/fixtures.js";

/** answers `status` or fails the test with the body */
export async function expectStatus(call: Promise<LightMyRequestResponse>, status: number) {
  const res = await call;
  assert.equal(res.statusCode, status, res.body);
  return res.json();
}

export async function expectError(call: Promise<LightMyRequestResponse>, status: number, code: string) {
  const body = await expectStatus(call, status);
  assert.equal(body.ErrorCode, code, JSON.stringify(body));
  return body;
}

/**
 * A standard-mode tenant ready for prior authorization: holder PH1, policy POL1 for 2026, network NET1
 * holding provider CCHI-1 (CCHI-2 is outside it), member M1 (female, born 1990) on POL1 in category A of
 * NET1; template: A 10,000 SAR, benefit 1 (5,000) with sub-benefit 11 (2,000), benefit 2 (1,000); the
 * price list of CCHI-1 for 2026: CONS-1 at 200, LAB-1 at 100; reviewer user rev1.
 */
export async function setUpStandard(tenant: TenantClient): Promise<void> {
  await createHolder(tenant, "PH1");
  await createNetwork(tenant, "NET1");
  for (const cchi of ["CCHI-1", "CCHI-2"])
    await expectStatus(
      tenant.call("POST", "/medical-provider/create", {
        name: `Clinic ${cchi}`,
        city: "Riyadh",
        cchi_no: cchi,
      }),
      201,
    );
  const network = (await tenant.call("GET", "/network/find-all?name=NET1")).json().data[0];
  await expectStatus(tenant.call("POST", `/network/${network.id}/providers`, { cchi_no: "CCHI-1" }), 201);
  await createMember(tenant, "M1", { gender: "FEMALE", date_of_birth: "1990-05-01T00:00:00.000Z" });
  await createPolicy(tenant, "PH1", "POL1", {
    add_patient_to_policy: {
      member_id: "M1",
      network_code: "NET1",
      category_code: "A",
      start_date: "2026-01-01",
      end_date: "2026-12-31",
    },
  });
  const key = { ph_erp_id: "PH1", policy_no: "POL1" };
  await expectStatus(
    tenant.call("POST", "/policy/template/category", { ...key, category_code: "A", amount_eligible: 10000 }),
    201,
  );
  await expectStatus(
    tenant.call("POST", "/policy/template/benefit", {
      ...key,
      category_code: "A",
      benefit_code: 1,
      benefit_description: "Outpatient",
      limit: 5000,
      sub_benefits: [{ sub_benefit_code: 11, sub_benefit_description: "Consultations", limit: 2000 }],
    }),
    201,
  );
  await expectStatus(
    tenant.call("POST", "/policy/template/benefit", {
      ...key,
      category_code: "A",
      benefit_code: 2,
      limit: 1000,
    }),
    201,
  );
  const priceItem = (erpId: string, code: string, nphies: string, price: number) => ({
    department: "Outpatient",
    provider_service_Code: code,
    provider_service_description: code,
    provider_service_type: "SERVICE",
    nphies_code: nphies,
    nphies_type: "services",
    price,
    price_item_erp_id: erpId,
    date_start: "2026-01-01T00:00:00.000Z",
    date_end: "2026-12-31T23:59:59.999Z",
  });
  await expectStatus(
    tenant.call("POST", "/price-list/create", {
      start_date: "2026-01-01T00:00:00.000Z",
      end_date: "2026-12-31T23:59:59.999Z",
      provider_cchi_id: "CCHI-1",
      price_list_erp_id: "PL-1",
      price_items: [priceItem("PI-CONS", "CONS-1", "99213", 200), priceItem("PI-LAB", "LAB-1", "80053", 100)],
    }),
    201,
  );
  await expectStatus(tenant.call("POST", "/user/create", { username: "rev1", name: "Reviewer One" }), 201);
}

export const consultation = (overrides: Record<string, unknown> = {}) => ({
  service_code: "CONS-1",
  service_description: "General practitioner consultation",
  nphies_code: "99213",
  nphies_type: "CONSULTATION",
  service_type: "CONSULTATION",
  claimed_quantity: 1,
  claimed_amount: 250,
  erp_item_id: "I1",
  benefit_code: 1,
  sub_benefit_code: 11,
  ...overrides,
});

export const labTest = (overrides: Record<string, unknown> = {}) => ({
  service_code: "LAB-1",
  service_description: "Comprehensive metabolic panel",
  nphies_code: "80053",
  nphies_type: "AMBULATORY",
  service_type: "AMBULATORY",
  claimed_quantity: 1,
  claimed_amount: 100,
  erp_item_id: "I2",
  benefit_code: 2,
  ...overrides,
});

let sequence = 0;

/** a request for M1 at CCHI-1 under POL1 on 10 March 2026: a consultation above its contract price and a lab test */
export const requestBody = (overrides: Record<string, unknown> = {}) => ({
  authorization_number: "AUTH-1",
  transaction_id: `TX-${process.pid}-${++sequence}`,
  transaction_type: "PREAUTH",
  policy_no: "POL1",
  ph_erp_id: "PH1",
  medical_provider_cchi_no: "CCHI-1",
  member_id: "M1",
  member_dob: "1990-05-01T00:00:00.000Z",
  member_gender: "FEMALE",
  marital_status: "MARRIED",
  treatment_date: "2026-03-10T09:00:00.000Z",
  request_date: "2026-03-10T08:00:00.000Z",
  claim_type: "PROFESSIONAL",
  claim_sub_type: "OUT_PATIENT",
  diagnoses: [{ type: "primary", code: "J06.9", name: "Acute upper respiratory infection" }],
  items: [consultation(), labTest()],
  ...overrides,
});

export async function createRequest(tenant: TenantClient, overrides: Record<string, unknown> = {}) {
  const body = requestBody(overrides);
  const created = await expectStatus(tenant.call("POST", "/approval-request/create", body), 201);
  return { body, created };
}

/** an item result of the create response, as far as its reasons go */
export type Reasoned = { approved: boolean; rejection_reason: { nphies_code: string | null }[] };

/** the NPHIES codes of an item result's reasons */
export const nphiesOf = (item: Reasoned | undefined) =>
  (item?.rejection_reason ?? []).map((reason) => reason.nphies_code);
