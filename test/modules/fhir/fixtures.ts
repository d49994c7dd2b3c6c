import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import type { TenantClient, TestContext } from "../../helpers.js";
import { expectStatus, setUpStandard } from "../prior-auth/fixtures.js";
import { SERVICE_PRICES } from "./bundles.js";

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
  await expectStatus(
    tenant.call("POST", "/price-list/create", {
      start_date: "2026-01-01T00:00:00.000Z",
      end_date: "2026-12-31T23:59:59.999Z",
      provider_cchi_id: "CCHI-1",
      price_list_erp_id: "PL-FHIR",
      price_items: SERVICE_PRICES.map((service) => ({
        department: "All",
        provider_service_Code: service.code,
        provider_service_description: service.display,
        provider_service_type: "SERVICE",
        nphies_code: service.code,
        nphies_type: "services",
        price: service.price,
        price_item_erp_id: `PI-${service.code}`,
        date_start: "2026-01-01T00:00:00.000Z",
        date_end: "2026-12-31T23:59:59.999Z",
      })),
    }),
    201,
  );
}
