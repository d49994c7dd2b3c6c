import assert from "node:assert/strict";
import type { BulkPatientInput } from "../../../src/modules/policy-bulk/schemas.js";
import type { TenantClient } from "../../helpers.js";

/** reference data through the API, asserting each step succeeded */

export async function createHolder(tenant: TenantClient, phErpId: string): Promise<void> {
  const res = await tenant.call("POST", "/policy-holder/create", {
    ph_erp_id: phErpId,
    name: `Holder ${phErpId}`,
    insurance_type: "NORMAL",
  });
  assert.equal(res.statusCode, 201, res.body);
}

export async function createMember(
  tenant: TenantClient,
  memberId: string,
  overrides: Record<string, unknown> = {},
): Promise<void> {
  const res = await tenant.call("POST", "/member/create", {
    member_id: memberId,
    national_id: `N${memberId.replace(/[^A-Za-z0-9]/g, "")}`,
    gender: "FEMALE",
    marital_status: "SINGLE",
    date_of_birth: "1990-01-01T00:00:00.000Z",
    ...overrides,
  });
  assert.equal(res.statusCode, 201, res.body);
}

export async function createNetwork(tenant: TenantClient, name: string): Promise<void> {
  const res = await tenant.call("POST", "/network/create", { name });
  assert.equal(res.statusCode, 201, res.body);
}

export const policyBody = (phErpId: string, policyNo: string, overrides: Record<string, unknown> = {}) => ({
  policy_no: policyNo,
  ph_erp_id: phErpId,
  start_date: "2026-01-01",
  end_date: "2026-12-31",
  created_date: "2025-12-15",
  status: "ACTIVE",
  ...overrides,
});

export async function createPolicy(
  tenant: TenantClient,
  phErpId: string,
  policyNo: string,
  overrides: Record<string, unknown> = {},
): Promise<void> {
  const res = await tenant.call("POST", "/policy/create", policyBody(phErpId, policyNo, overrides));
  assert.equal(res.statusCode, 201, res.body);
}

export const bulkPatient = (memberId: string, overrides: Record<string, unknown> = {}) =>
  ({
    member_id: memberId,
    gender: "MALE",
    marital_status: "MARRIED",
    date_of_birth: "1985-06-15T00:00:00.000Z",
    category_code: "A",
    effective_start_date: "2026-01-01T00:00:00.000Z",
    effective_end_date: "2026-12-31T00:00:00.000Z",
    ...overrides,
  }) as BulkPatientInput;

export const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
