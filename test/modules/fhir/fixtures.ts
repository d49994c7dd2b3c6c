import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import type { TenantClient, TestContext } from "../../helpers.js";
import { expectStatus, setUpStandard } from "../prior-auth/fixtures.js";
import { claimMessage, type Json, resourceOf, SERVICE_PRICES } from "./bundles.js";

/** POSTs a message to the tenant's $process-message as NPHIES does */
export function postMessage(
  ctx: TestContext,
  tenant: TenantClient,
  bundle: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: "POST",
    url: `/${tenant.name}/fhir/$process-message`,
    headers: { "access-key": tenant.apiKey, "content-type": "application/fhir+json", ...headers },
    payload: typeof bundle === "string" ? bundle : JSON.stringify(bundle),
  });
}

/** the OperationOutcome's issues of a refused message, checked to be one */
export function issuesOf(res: LightMyRequestResponse, status = 400) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers["content-type"]), /^application\/fhir\+json/);
  const body = res.json();
  assert.equal(body.resourceType, "OperationOutcome", res.body);
  return body.issue as { severity: string; code: string; diagnostics: string; expression?: string[] }[];
}

/** the FHIRPaths an OperationOutcome names */
export const pathsOf = (res: LightMyRequestResponse, status = 400) =>
  issuesOf(res, status).flatMap((issue) => issue.expression ?? []);

/**
 * The standard tenant of the prior-authorization tests (setUpStandard) with contract prices at CCHI-1 for
 * the services of every claim kind the FHIR messages send, at the prices they claim.
 */
export async function setUpFhirTenant(tenant: TenantClient): Promise<void> {
  await setUpStandard(tenant);
  await createPriceList(tenant, {
    provider: "CCHI-1",
    erpId: "PL-FHIR",
    from: 2026,
    to: 2026,
    prices: SERVICE_PRICES.map((service) => [service.code, service.price]),
  });
}

/** posts a message that must be answered (200) */
export async function postAnswered(ctx: TestContext, tenant: TenantClient, message: unknown) {
  const res = await postMessage(ctx, tenant, message);
  assert.equal(res.statusCode, 200, res.body.slice(0, 2000));
  return res;
}

/** a priorauth-request (claimMessage options) received through the FHIR interface; its Claim identifier */
export async function receivedClaim(
  ctx: TestContext,
  tenant: TenantClient,
  options: Parameters<typeof claimMessage>[0] = {},
): Promise<Json> {
  const request = claimMessage(options);
  await postAnswered(ctx, tenant, request);
  return resourceOf(request, "Claim").identifier[0];
}

/** the JSON API's view of a request */
export const getOne = (tenant: TenantClient, transactionId: string) =>
  expectStatus(tenant.call("GET", `/approval-request/get-one/${encodeURIComponent(transactionId)}`), 200);

/** a price list of `provider` for the years `from`-`to`, its services billed under their own codes */
export function createPriceList(
  tenant: TenantClient,
  list: { provider: string; erpId: string; from: number; to: number; prices: [string, number][] },
) {
  const start = `${list.from}-01-01T00:00:00.000Z`;
  const end = `${list.to}-12-31T23:59:59.999Z`;
  return expectStatus(
    tenant.call("POST", "/price-list/create", {
      start_date: start,
      end_date: end,
      provider_cchi_id: list.provider,
      price_list_erp_id: list.erpId,
      price_items: list.prices.map(([code, price]) => ({
        department: "All",
        provider_service_Code: code,
        provider_service_description: code,
        provider_service_type: "SERVICE",
        nphies_code: code,
        nphies_type: "services",
        price,
        price_item_erp_id: `PI-${list.erpId}-${code}`,
        date_start: start,
        date_end: end,
      })),
    }),
    201,
  );
}
