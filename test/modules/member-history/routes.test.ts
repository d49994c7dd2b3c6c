import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TenantClient, type TestContext } from "../../helpers.js";
import {
  createRequest,
  expectError,
  expectStatus,
  nphiesOf,
  type Reasoned,
  setUpStandard,
} from "../prior-auth/fixtures.js";

describe("history synchronization", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = ctx.tenant;
    await setUpStandard(tenant);
  });
  after(() => ctx.close());

  it("loads a member's past claims and requests, which the duplicate and follow-up checks use", async () => {
    const synced = await expectStatus(
      tenant.call("POST", "/history/claims/sync", {
        member_id: "M1",
        records: [
          {
            reference: "CLM-1",
            service_date: "2026-03-01",
            status: "PAID",
            provider_cchi_no: "CCHI-1",
            diagnosis_codes: ["J06.9"],
            items: [{ service_code: "LAB-1", service_type: "AMBULATORY", quantity: 1, unit_amount: 100 }],
          },
          {
            reference: "CLM-2",
            service_date: "2026-03-05T10:00:00.000Z",
            status: "APPROVED",
            provider_cchi_no: "CCHI-1",
            items: [{ service_code: "CONS-1", service_type: "CONSULTATION" }],
          },
        ],
      }),
      200,
    );
    assert.deepEqual([synced.received, synced.created, synced.updated], [2, 2, 0]);
    const again = await expectStatus(
      tenant.call("POST", "/history/approval-requests/sync", {
        member_id: "M1",
        records: [
          {
            reference: "PA-OLD",
            service_date: "2025-01-01",
            status: "REJECTED",
            items: [{ service_code: "X-1" }],
          },
        ],
      }),
      200,
    );
    assert.equal(again.created, 1);
    const listed = await expectStatus(tenant.call("GET", "/history/member/M1"), 200);
    assert.equal(listed.total_count, 3);
    assert.deepEqual(listed.data[0].diagnosis_codes, ["J069"]);

    // LAB-1 paid 9 days before, a consultation at the same provider 5 days before
    const { created } = await createRequest(tenant);
    const [cons, lab] = created.items_results as Reasoned[];
    assert.equal(cons?.approved, false);
    assert.ok(nphiesOf(cons).includes("NDC043"), JSON.stringify(cons));
    assert.equal(lab?.approved, false);
    assert.ok(nphiesOf(lab).includes("NDC080"), JSON.stringify(lab));

    await expectError(
      tenant.call("POST", "/history/claims/sync", {
        member_id: "M1",
        records: [
          { reference: "D", service_date: "2026-01-01", status: "PAID", items: [{ service_code: "A" }] },
          { reference: "D", service_date: "2026-01-02", status: "PAID", items: [{ service_code: "B" }] },
        ],
      }),
      400,
      "E_BAD_REQUEST_400",
    );
    await expectError(
      tenant.call("POST", "/history/claims/sync", {
        member_id: "M1",
        records: [{ reference: "E", service_date: "2026-01-01", status: "PAID", items: [] }],
      }),
      400,
      "E_BAD_REQUEST_400",
    );
  });
});
