import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";
import { createHolder, createMember, createNetwork, policyBody, query } from "./fixtures.js";

describe("policy", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
    await createHolder(ctx.tenant, "PH1");
    await createMember(ctx.tenant, "M1");
    await createMember(ctx.tenant, "M2");
    await createNetwork(ctx.tenant, "GOLD");
  });
  after(() => ctx.close());

  const readPolicy = (policyNo: string, phErpId = "PH1") =>
    ctx.tenant.call("GET", `/policy/policy${query({ ph_erp_id: phErpId, policy_no: policyNo })}`);

  describe("POST /policy/create", () => {
    it("creates a policy and answers its fields", async () => {
      const res = await ctx.tenant.call("POST", "/policy/create", policyBody("PH1", "POL-1"));
      assert.equal(res.statusCode, 201);
      assert.deepEqual(res.json(), {
        policy_no: "POL-1",
        start_date: "2026-01-01",
        end_date: "2026-12-31",
        created_date: "2025-12-15",
        status: "ACTIVE",
        ph_erp_id: "PH1",
        plan_code: null,
        code: 201,
        message: "Policy created successfully",
      });
      assert.equal((await readPolicy("POL-1")).statusCode, 200);
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "policy", "PH1/POL-1"), ["policy.create"]);
    });

    it("takes a date-time for an ISO date and keeps its UTC date", async () => {
      const res = await ctx.tenant.call(
        "POST",
        "/policy/create",
        policyBody("PH1", "POL-DT", { start_date: "2026-02-01T00:00:00.000Z" }),
      );
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().start_date, "2026-02-01");
    });

    it("adds a patient with add_patient_to_policy", async () => {
      const body = policyBody("PH1", "POL-2", {
        add_patient_to_policy: {
          member_id: "M1",
          network_code: "GOLD",
          category_code: "A",
          start_date: "2026-01-01",
          end_date: "2026-06-30",
        },
      });
      const res = await ctx.tenant.call("POST", "/policy/create", body);
      assert.equal(res.statusCode, 201, res.body);
      const link = await ctx.tenant.call(
        "PATCH",
        `/policy/patient-policy${query({ ph_erp_id: "PH1", policy_no: "POL-2", member_id: "M1" })}`,
        {},
      );
      assert.equal(link.statusCode, 200);
      assert.equal(link.json().network_code, "GOLD");
      assert.equal(link.json().category_code, "A");
      assert.equal(link.json().end_date, "2026-06-30");
      assert.equal(link.json().status, "ACTIVE");
    });

    it("answers 409 E_EPA_069 when the patient already has an active policy for those dates, and creates nothing", async () => {
      const body = policyBody("PH1", "POL-3", {
        add_patient_to_policy: {
          member_id: "M1",
          category_code: "A",
          start_date: "2026-06-01",
          end_date: "2026-12-31",
        },
      });
      const res = await ctx.tenant.call("POST", "/policy/create", body);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_EPA_069");
      assert.match(res.json().message, /active policy POL-2/);
      assert.equal((await readPolicy("POL-3")).statusCode, 404);
    });

    it("links the patient when the other policy's coverage has ended", async () => {
      const body = policyBody("PH1", "POL-4", {
        add_patient_to_policy: {
          member_id: "M1",
          category_code: "B",
          start_date: "2026-07-01",
          end_date: "2026-12-31",
        },
      });
      assert.equal((await ctx.tenant.call("POST", "/policy/create", body)).statusCode, 201);
    });

    it("answers 409 E_EPA_069 when the policy exists", async () => {
      const res = await ctx.tenant.call("POST", "/policy/create", policyBody("PH1", "POL-1"));
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_EPA_069");
    });

    it("answers 404 E_EPH_01 for an unknown policy holder", async () => {
      const res = await ctx.tenant.call("POST", "/policy/create", policyBody("NOPE", "POL-X"));
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, "E_EPH_01");
    });

    it("answers 404 E_EPA_01 for an unknown patient and 404 E_EPA_015 for an unknown network", async () => {
      const patient = {
        member_id: "GHOST",
        category_code: "A",
        start_date: "2026-01-01",
        end_date: "2026-02-01",
      };
      const noPatient = await ctx.tenant.call(
        "POST",
        "/policy/create",
        policyBody("PH1", "POL-5", { add_patient_to_policy: patient }),
      );
      assert.equal(noPatient.statusCode, 404);
      assert.equal(noPatient.json().ErrorCode, "E_EPA_01");
      const noNetwork = await ctx.tenant.call(
        "POST",
        "/policy/create",
        policyBody("PH1", "POL-5", {
          add_patient_to_policy: { ...patient, member_id: "M2", network_code: "NONE" },
        }),
      );
      assert.equal(noNetwork.statusCode, 404);
      assert.equal(noNetwork.json().ErrorCode, "E_EPA_015");
      assert.equal((await readPolicy("POL-5")).statusCode, 404);
    });

    it("answers 400 E_BAD_REQUEST_400 naming the field", async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ status: "OPEN" }, /status must be one of: ACTIVE, INACTIVE, EXPIRED/],
        [{ start_date: "2026-02-30" }, /start_date must be a date/],
        [{ end_date: "2025-01-01" }, /end_date must not be before start_date/],
        [{ policy_no: "" }, /policy_no/],
        [{ add_patient_to_policy: { member_id: "M2" } }, /add_patient_to_policy.category_code is required/],
      ];
      for (const [overrides, message] of cases) {
        const res = await ctx.tenant.call("POST", "/policy/create", policyBody("PH1", "POL-BAD", overrides));
        assert.equal(res.statusCode, 400, JSON.stringify(overrides));
        assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
        assert.match(res.json().details.join("\n"), message);
      }
      const missing = await ctx.tenant.call("POST", "/policy/create", { policy_no: "P" });
      assert.match(missing.json().details.join("\n"), /ph_erp_id is required/);
      assert.equal((await readPolicy("POL-BAD")).statusCode, 404);
    });

    it("answers 401 without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "POST",
        url: `/${ctx.tenant.name}/v4.0/health/policy/create`,
        payload: policyBody("PH1", "POL-401"),
      });
      assert.equal(res.statusCode, 401);
    });

    it("gives exactly one 201 among ten concurrent creates of one policy", async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          ctx.tenant.call("POST", "/policy/create", policyBody("PH1", "POL-RACE")),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [201, ...Array(9).fill(409)]);
      const rows = await ctx.db.query(
        `SELECT 1 FROM policies WHERE tenant_id = $1 AND policy_no = 'POL-RACE'`,
        [ctx.tenant.id],
      );
      assert.equal(rows.length, 1);
    });
  });

  describe("PATCH /policy/policy", () => {
    const path = (policyNo: string, phErpId = "PH1") =>
      `/policy/policy${query({ ph_erp_id: phErpId, policy_no: policyNo })}`;

    it("changes only the fields sent", async () => {
      const res = await ctx.tenant.call("PATCH", path("POL-1"), {
        status: "INACTIVE",
        plan_code: "GOLD-PLAN",
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().status, "INACTIVE");
      assert.equal(res.json().plan_code, "GOLD-PLAN");
      assert.equal(res.json().start_date, "2026-01-01");
      assert.equal(res.json().code, 200);
      const stored = (await readPolicy("POL-1")).json();
      assert.equal(stored.status, "INACTIVE");
      assert.equal(stored.end_date, "2026-12-31");
    });

    it("answers 400 when the dates would be out of order", async () => {
      const res = await ctx.tenant.call("PATCH", path("POL-1"), { end_date: "2025-06-01" });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().details[0], /end_date must not be before start_date/);
    });

    it("answers 404 E_EPH_01 and E_EPA_014", async () => {
      const noHolder = await ctx.tenant.call("PATCH", path("POL-1", "NOPE"), { status: "ACTIVE" });
      assert.equal(noHolder.json().ErrorCode, "E_EPH_01");
      const noPolicy = await ctx.tenant.call("PATCH", path("NOPE"), { status: "ACTIVE" });
      assert.equal(noPolicy.statusCode, 404);
      assert.equal(noPolicy.json().ErrorCode, "E_EPA_014");
    });

    it("answers 400 when a key is missing from the query", async () => {
      const res = await ctx.tenant.call("PATCH", "/policy/policy?ph_erp_id=PH1", { status: "ACTIVE" });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().details[0], /policy_no is required/);
    });
  });

  describe("PATCH /policy/patient-policy", () => {
    const path = (member: string, policyNo = "POL-2") =>
      `/policy/patient-policy${query({ ph_erp_id: "PH1", policy_no: policyNo, member_id: member })}`;

    it("changes the link's category, network, dates and status", async () => {
      await createNetwork(ctx.tenant, "SILVER");
      const res = await ctx.tenant.call("PATCH", path("M1"), {
        category_code: "C",
        network_code: "SILVER",
        end_date: "2026-05-31",
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        member_id: "M1",
        policy_no: "POL-2",
        ph_erp_id: "PH1",
        category_code: "C",
        network_code: "SILVER",
        start_date: "2026-01-01",
        end_date: "2026-05-31",
        status: "ACTIVE",
        is_vip: false,
        code: 200,
        message: "Patient policy updated successfully",
      });
    });

    it("answers 409 E_EPA_069 when a change would overlap another active policy", async () => {
      const res = await ctx.tenant.call("PATCH", path("M1"), { end_date: "2026-08-31" });
      assert.equal(res.statusCode, 409);
      assert.match(res.json().message, /POL-4/);
      const inactive = await ctx.tenant.call("PATCH", path("M1"), {
        status: "INACTIVE",
        end_date: "2026-08-31",
      });
      assert.equal(inactive.statusCode, 200);
    });

    it("answers 404 E_EPA_01 for an unknown member or one not on the policy, E_EPA_015 for an unknown network", async () => {
      assert.equal((await ctx.tenant.call("PATCH", path("GHOST"), {})).json().ErrorCode, "E_EPA_01");
      assert.equal((await ctx.tenant.call("PATCH", path("M2"), {})).json().ErrorCode, "E_EPA_01");
      assert.equal(
        (await ctx.tenant.call("PATCH", path("M1"), { network_code: "NONE" })).json().ErrorCode,
        "E_EPA_015",
      );
      assert.equal((await ctx.tenant.call("PATCH", path("M1", "NOPE"), {})).json().ErrorCode, "E_EPA_014");
    });

    it("answers 400 for a bad status", async () => {
      const res = await ctx.tenant.call("PATCH", path("M1"), { status: "GONE" });
      assert.equal(res.statusCode, 400);
    });
  });

  describe("tenancy", () => {
    it("does not show or change another tenant's policy", async () => {
      const other = await ctx.newTenant();
      const read = await other.call(
        "GET",
        `/policy/policy${query({ ph_erp_id: "PH1", policy_no: "POL-1" })}`,
      );
      assert.equal(read.statusCode, 404);
      assert.equal(read.json().ErrorCode, "E_EPH_01");
      await createHolder(other, "PH1");
      const create = await other.call("POST", "/policy/create", policyBody("PH1", "POL-1"));
      assert.equal(create.statusCode, 201, "the same keys are free in another tenant");
      const update = await other.call(
        "PATCH",
        `/policy/policy${query({ ph_erp_id: "PH1", policy_no: "POL-1" })}`,
        { status: "EXPIRED" },
      );
      assert.equal(update.statusCode, 200);
      assert.equal((await readPolicy("POL-1")).json().status, "INACTIVE");
    });
  });
});
