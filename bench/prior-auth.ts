/**
 * Prior-authorization create against a running server, 20 concurrent clients (BENCH_CONNECTIONS), each
 * request a new transaction_id with two items (a consultation above its contract price and a lab test):
 * - lightweight: a lightweight tenant, nothing loaded first; members rotate over 2,000 (created on the
 *   fly the first time);
 * - standard: a standard tenant with a holder, a policy, a network with the provider, 2,000 members on
 *   the policy (bulk import), a template with limits, a price list and a reviewer; members rotate.
 * Then each again with one client (p50 <= 3 ms).
 * Budgets: docs/architecture.md section 7 (lightweight >= 300 req/s, p99 <= 50 ms; standard >= 200, p99 <= 80 ms).
 */
import { cpuOf } from "./cpu.js";
import { cannonPosts, type Figure, figure } from "./figures.js";
import { createTenant } from "./server.js";

export const MEMBERS = 2_000;

async function must(
  base: string,
  headers: Record<string, string>,
  path: string,
  body: unknown,
  method = "POST",
) {
  const res = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

/** the standard tenant's reference data: what the engine reads for every request */
export async function setUpStandard(base: string, headers: Record<string, string>) {
  await must(base, headers, "/policy-holder/create", {
    ph_erp_id: "PH1",
    name: "Bench Holder",
    insurance_type: "NORMAL",
  });
  await must(base, headers, "/network/create", { name: "NET1" });
  await must(base, headers, "/medical-provider/create", {
    name: "Clinic",
    city: "Riyadh",
    cchi_no: "CCHI-1",
  });
  const network = (await (await fetch(`${base}/network/find-all?name=NET1`, { headers })).json()) as {
    data: { id: number }[];
  };
  await must(base, headers, `/network/${network.data[0]?.id}/providers`, { cchi_no: "CCHI-1" });
  await must(base, headers, "/policy/create", {
    ph_erp_id: "PH1",
    policy_no: "POL1",
    start_date: "2026-01-01",
    end_date: "2026-12-31",
    created_date: "2025-12-01",
    status: "ACTIVE",
  });
  await must(base, headers, "/policy/bulk-patient-to-policy", {
    ph_erp_id: "PH1",
    policy_no: "POL1",
    patients: Array.from({ length: MEMBERS }, (_, i) => ({
      member_id: `M${i}`,
      gender: i % 2 ? "MALE" : "FEMALE",
      marital_status: "MARRIED",
      date_of_birth: "1985-06-15T00:00:00.000Z",
      category_code: "A",
      network_code: "NET1",
      effective_start_date: "2026-01-01T00:00:00.000Z",
      effective_end_date: "2026-12-31T00:00:00.000Z",
    })),
  });
  const key = { ph_erp_id: "PH1", policy_no: "POL1" };
  await must(base, headers, "/policy/template/category", {
    ...key,
    category_code: "A",
    amount_eligible: 500000,
  });
  await must(base, headers, "/policy/template/benefit", {
    ...key,
    category_code: "A",
    benefit_code: 1,
    limit: 200000,
    sub_benefits: [{ sub_benefit_code: 11, limit: 100000 }],
  });
  await must(base, headers, "/policy/template/benefit", {
    ...key,
    category_code: "A",
    benefit_code: 2,
    limit: 100000,
  });
  const item = (erp: string, code: string, nphies: string, price: number) => ({
    department: "Outpatient",
    provider_service_Code: code,
    provider_service_description: code,
    provider_service_type: "SERVICE",
    nphies_code: nphies,
    nphies_type: "services",
    price,
    price_item_erp_id: erp,
    date_start: "2026-01-01T00:00:00.000Z",
    date_end: "2026-12-31T23:59:59.999Z",
  });
  await must(base, headers, "/price-list/create", {
    start_date: "2026-01-01T00:00:00.000Z",
    end_date: "2026-12-31T23:59:59.999Z",
    provider_cchi_id: "CCHI-1",
    price_list_erp_id: "PL-1",
    price_items: [item("PI-1", "CONS-1", "99213", 200), item("PI-2", "LAB-1", "80053", 100)],
  });
}

/** a day of 2026 for the n-th request: spread over the year, so that a member's requests are rarely duplicates */
export const benchDayOf = (sequence: number): string =>
  new Date(Date.UTC(2026, 0, 1) + ((sequence * 7) % 360) * 86_400_000).toISOString().slice(0, 10);

/** the n-th create body for member M<n mod 2,000> of the standard tenant (the lightweight one creates it) */
export function requestBodyOf(sequence: number, prefix: string, items: readonly object[]): string {
  const member = sequence % MEMBERS;
  const day = `${benchDayOf(sequence)}T00:00:00.000Z`;
  return JSON.stringify({
    authorization_number: `${prefix}-${process.pid}-${sequence}`,
    transaction_id: `${prefix}-${process.pid}-${sequence}`,
    transaction_type: "PREAUTH",
    policy_no: "POL1",
    ph_erp_id: "PH1",
    medical_provider_cchi_no: "CCHI-1",
    member_id: `M${member}`,
    member_dob: "1985-06-15T00:00:00.000Z",
    member_gender: member % 2 ? "MALE" : "FEMALE",
    marital_status: "MARRIED",
    treatment_date: day,
    request_date: day,
    claim_type: "PROFESSIONAL",
    claim_sub_type: "OUT_PATIENT",
    diagnoses: [{ type: "primary", code: "J06.9" }],
    items,
  });
}

const ITEMS = [
  {
    service_code: "CONS-1",
    service_description: "GP consultation",
    nphies_code: "99213",
    nphies_type: "CONSULTATION",
    service_type: "CONSULTATION",
    claimed_quantity: 1,
    claimed_amount: 250,
    erp_item_id: "I1",
    benefit_code: 1,
    sub_benefit_code: 11,
  },
  {
    service_code: "LAB-1",
    service_description: "Comprehensive metabolic panel",
    nphies_code: "80053",
    nphies_type: "AMBULATORY",
    service_type: "AMBULATORY",
    claimed_quantity: 1,
    claimed_amount: 100,
    erp_item_id: "I2",
    benefit_code: 2,
  },
];

const requestBody = (sequence: number) => requestBodyOf(sequence, "BENCH", ITEMS);

/** one sequence across every run, so that no transaction_id repeats */
let sequence = 0;

/** creates on `base` (the app's or the floor server's) from `connections` clients for `seconds` */
export function driveCreate(
  base: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
) {
  return cannonPosts(base, "/approval-request/create", headers, seconds, connections, () =>
    requestBody(sequence++),
  );
}

/** one tenant's creates: with BENCH_CONNECTIONS clients, and with one */
export interface CreateFigures {
  many: Figure;
  one: Figure;
}

export interface PriorAuthFigures {
  lightweight: CreateFigures;
  standard: CreateFigures;
}

export async function benchPriorAuth(
  port: number,
  adminToken: string,
  options: { seconds: number; connections: number; serverPid: number | undefined },
): Promise<PriorAuthFigures> {
  const lightweight = await createTenant(port, adminToken, "bench-pa-light", "lightweight");
  const standard = await createTenant(port, adminToken, "bench-pa-std", "standard");
  await setUpStandard(standard.base, standard.headers);
  const many = async (tenant: typeof lightweight, label: string, budget: string) => {
    // a short warm-up, so that the first requests' planning does not count
    await driveCreate(tenant.base, tenant.headers, 2, options.connections);
    const { result: run, cpu } = await cpuOf(options.serverPid, () =>
      driveCreate(tenant.base, tenant.headers, options.seconds, options.connections),
    );
    return figure(`POST approval-request/create, ${label} (2 items)`, run, budget, "201", cpu);
  };
  const light = await many(lightweight, "lightweight", ">= 300 req/s, p99 <= 50 ms");
  const std = await many(standard, "standard", ">= 200 req/s, p99 <= 80 ms");
  // one client waiting for each answer: the latency of a create by itself
  const one = async (tenant: typeof lightweight, label: string) => {
    const { result: run, cpu } = await cpuOf(options.serverPid, () =>
      driveCreate(tenant.base, tenant.headers, options.seconds, 1),
    );
    return figure(`POST approval-request/create, ${label}, one client`, run, "p50 <= 3 ms", "201", cpu);
  };
  return {
    lightweight: { many: light, one: await one(lightweight, "lightweight") },
    standard: { many: std, one: await one(standard, "standard") },
  };
}
