import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createMizanClient, MizanApiError, type MizanClient, MizanError, unwrap } from "@mizan/client";
import type { TestContext } from "../../helpers.js";
import { setUpStandard } from "../../modules/prior-auth/fixtures.js";
import { serveTestApp } from "./served.js";

describe("@mizan/client: the tenant API", () => {
  let ctx: TestContext;
  let baseUrl: string;
  let mizan: MizanClient;
  before(async () => {
    ({ ctx, baseUrl } = await serveTestApp());
    await setUpStandard(ctx.tenant);
    mizan = createMizanClient({ baseUrl, tenant: ctx.tenant.name, apiKey: ctx.tenant.apiKey });
  });
  after(() => ctx.close());

  /** a request for M1 at CCHI-1 under POL1 (the standard fixtures), written against the generated types */
  const request = (transactionId: string) => ({
    authorization_number: "AUTH-CLIENT",
    transaction_id: transactionId,
    transaction_type: "PREAUTH" as const,
    policy_no: "POL1",
    ph_erp_id: "PH1",
    medical_provider_cchi_no: "CCHI-1",
    member_id: "M1",
    member_dob: "1990-05-01T00:00:00.000Z",
    member_gender: "FEMALE" as const,
    marital_status: "MARRIED" as const,
    treatment_date: "2026-03-10T09:00:00.000Z",
    request_date: "2026-03-10T08:00:00.000Z",
    claim_type: "PROFESSIONAL" as const,
    claim_sub_type: "OUT_PATIENT" as const,
    diagnoses: [{ type: "primary" as const, code: "J06.9", name: "Acute upper respiratory infection" }],
    items: [
      {
        service_code: "LAB-1",
        service_description: "Comprehensive metabolic panel",
        nphies_code: "80053",
        nphies_type: "AMBULATORY" as const,
        service_type: "AMBULATORY" as const,
        claimed_quantity: 1,
        claimed_amount: 100,
        erp_item_id: "I1",
        benefit_code: 2,
      },
    ],
  });

  it("creates a prior authorization and reads it back, the tenant in the base URL", async () => {
    const transactionId = `TX-CLIENT-${randomUUID().slice(0, 8)}`;
    const requestId = `client-test-${randomUUID()}`;
    const { data: created, response } = await mizan.tenant.POST("/v4.0/health/approval-request/create", {
      body: request(transactionId),
      headers: { "X-Request-ID": requestId },
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("x-request-id"), requestId, "the caller's request id is sent");
    assert.equal(created?.transaction_id, transactionId);
    assert.equal(created?.status, "COMPLETED");
    assert.equal(created?.items_results[0]?.approved, true);

    const stored = await unwrap(
      mizan.tenant.GET("/v4.0/health/approval-request/get-one/{transaction_id}", {
        params: { path: { transaction_id: transactionId } },
      }),
    );
    assert.equal(stored.transaction_id, transactionId);
    assert.equal(stored.authorization_number, "AUTH-CLIENT");
    assert.equal(stored.member_id, "M1");
  });

  it("raises MizanApiError with the status, the body and the request id", async () => {
    const transactionId = `TX-CLIENT-${randomUUID().slice(0, 8)}`;
    await unwrap(mizan.tenant.POST("/v4.0/health/approval-request/create", { body: request(transactionId) }));
    const duplicate = await unwrap(
      mizan.tenant.POST("/v4.0/health/approval-request/create", { body: request(transactionId) }),
    ).catch((error: unknown) => error);
    assert.ok(duplicate instanceof MizanApiError);
    assert.equal(duplicate.status, 409);
    assert.equal((duplicate.body as { ErrorCode: string }).ErrorCode, "E_EPA_069");
    assert.match(duplicate.requestId ?? "", /^[0-9a-f-]{36}$/, "a UUID made by the client");

    const missing = await unwrap(
      mizan.tenant.GET("/v4.0/health/approval-request/get-one/{transaction_id}", {
        params: { path: { transaction_id: "TX-NEVER" } },
      }),
    ).catch((error: unknown) => error);
    assert.ok(missing instanceof MizanApiError);
    assert.equal(missing.status, 404);
    assert.match(missing.message, /404/);

    const stranger = createMizanClient({ baseUrl, tenant: ctx.tenant.name, apiKey: "not-the-key" });
    const refused = await unwrap(stranger.tenant.GET("/v4.0/health/webhook/list")).catch(
      (error: unknown) => error,
    );
    assert.ok(refused instanceof MizanApiError);
    assert.equal(refused.status, 401);
  });

  it("works for a lightweight tenant, which needs no reference data", async () => {
    const light = await ctx.newTenant("lightweight");
    const client = createMizanClient({ baseUrl, tenant: light.name, apiKey: light.apiKey });
    const created = await unwrap(
      client.tenant.POST("/v4.0/health/approval-request/create", { body: request("TX-LIGHT-1") }),
    );
    assert.equal(created.status, "COMPLETED");
    const stored = await unwrap(
      client.tenant.GET("/v4.0/health/approval-request/get-one/{transaction_id}", {
        params: { path: { transaction_id: "TX-LIGHT-1" } },
      }),
    );
    assert.equal(stored.transaction_id, "TX-LIGHT-1");
  });

  it("refuses tenant calls when no tenant was given, before sending anything", async () => {
    const client = createMizanClient({ baseUrl, apiKey: ctx.tenant.apiKey });
    await assert.rejects(client.tenant.GET("/v4.0/health/webhook/list"), MizanError);
  });
});
