import assert from "node:assert/strict";
import type { InjectOptions } from "fastify";
import type { App } from "../../../src/app.js";
import type { TenantClient } from "../../helpers.js";

/** a valid claim of a batch (the spec's fields), with `items` items */
export const batchClaim = (n: number, overrides: Record<string, unknown> = {}, items = 2) => ({
  claim_id: `C-${n}`,
  claim_type: "PROFESSIONAL",
  claim_sub_type: "OUT_PATIENT",
  claim_date: "2026-03-10",
  primary_diagnosis_code: "J06.9",
  primary_diagnosis_description: "Acute upper respiratory infection",
  // one member per claim: claims of one member at one provider on one day would be a split (FWA-SPLIT-01)
  member_id: `M-${n}`,
  member_dob: "1985-06-15T00:00:00.000Z",
  member_gender: n % 2 ? "MALE" : "FEMALE",
  provider_id: `P-${n % 3}`,
  medical_provider_type: "CLINIC",
  ph_id: "PH-1",
  insurance_start_date: "2026-01-01",
  claim_items: Array.from({ length: items }, (_, i) => ({
    claimed_quantity: 1,
    // a claim's items differ from every other claim's (no exact duplicates in a fixture batch)
    claimed_amount: 100 + n + i / 10,
    service_code: `SVC-${i}`,
    service_description: `Service ${i}`,
    erp_item_id: `C-${n}-I${i}`,
  })),
  ...overrides,
});

/** claim n as an inpatient stay of `days` at `provider`, billing `amount` in one item */
export const inpatientStay = (
  n: number,
  provider: string,
  days: number,
  amount: number,
  overrides: Record<string, unknown> = {},
) =>
  batchClaim(n, {
    claim_type: "INSTITUTIONAL",
    claim_sub_type: "IN_PATIENT",
    medical_provider_type: "HOSPITAL",
    provider_id: provider,
    admission_date: "2026-03-01",
    discharge_date: `2026-03-${String(1 + days).padStart(2, "0")}`,
    claim_items: [
      { claimed_quantity: 1, claimed_amount: amount, service_code: "DRG-1", service_description: "Stay" },
    ],
    ...overrides,
  });

export const batchBody = (claims: unknown[], overrides: Record<string, unknown> = {}) => ({
  start_date: "2026-03-01",
  end_date: "2026-03-31",
  description: "March claims",
  batch_reference_id: `REF-${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
  claims,
  ...overrides,
});

/** the tenant's client credentials grant: a bearer token */
export async function tokenFor(app: App, tenant: TenantClient): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/v1/auth/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: tenant.clientId,
      client_secret: tenant.clientSecret,
    }).toString(),
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().access_token;
}

/** a request to the batch claims service with a bearer token */
export function claimsCall(app: App, token: string, options: InjectOptions) {
  return app.inject({
    ...options,
    headers: { authorization: `Bearer ${token}`, ...(options.headers ?? {}) },
  });
}

/** a JSON batch uploaded with the token (the body as given, or the batch object as JSON) */
export function uploadBatch(app: App, token: string, body: unknown) {
  return claimsCall(app, token, {
    method: "POST",
    url: "/v1/claims/batch/upload",
    headers: { "content-type": "application/json" },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** waits until the batch has finished (completed or failed) and answers its status */
export async function waitForBatch(app: App, token: string, batchId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await claimsCall(app, token, { method: "GET", url: `/v1/claims/batch/${batchId}` });
    assert.equal(res.statusCode, 200, res.body);
    const status = res.json();
    if (status.status === "completed" || status.status === "failed") return status;
    if (Date.now() > deadline) throw new Error(`batch ${batchId} is still ${status.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** uploads the batch and waits for its analysis, which must complete; answers its id and last status */
export async function analysedBatch(app: App, token: string, body: unknown) {
  const uploaded = await uploadBatch(app, token, body);
  assert.equal(uploaded.statusCode, 202, uploaded.body);
  const batchId: string = uploaded.json().batch_id;
  const status = await waitForBatch(app, token, batchId);
  assert.equal(status.status, "completed", JSON.stringify(status));
  return { batchId, status };
}

/** cells a spreadsheet would run as formulas, and what every export must write for them */
export const FORMULAS: [string, string][] = [
  ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
  ["@SUM(1+1)", `"'@SUM(1+1)"`],
  ["+1+1", `"'+1+1"`],
  ["-1+1", `"'-1+1"`],
  ["\tTAB", `"'\tTAB"`],
  ["\rCR", `"'\rCR"`],
];

/** a job's log that keeps what is written at error level (the fields of each line) */
export function capturingLog() {
  const entries: Record<string, unknown>[] = [];
  const log = {
    info() {},
    warn() {},
    debug() {},
    error: (fields: Record<string, unknown>) => void entries.push(fields),
    child: () => log,
  };
  return { entries, log: log as never };
}
