import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";

describe("policy holder", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
    await ctx.tenant.call("POST", "/policy-holder/create", {
      ph_erp_id: "PH-OTHER",
      name: "Other Co",
      insurance_type: "NORMAL",
      registration_number: "CR-OTHER",
    });
  });
  after(() => ctx.close());

  const holder = (overrides: Record<string, unknown> = {}) => ({
    ph_erp_id: "PH-001",
    name: "Al Safa Trading",
    insurance_type: "VIP",
    province: "Riyadh",
    registration_number: "CR-1010",
    ...overrides,
  });

  describe("POST /policy-holder/create", () => {
    it("creates a holder and answers its ERPCode", async () => {
      const res = await ctx.tenant.call("POST", "/policy-holder/create", holder());
      assert.equal(res.statusCode, 201);
      assert.deepEqual(res.json(), {
        ERPCode: "PH-001",
        code: 201,
        message: "Policy holder created successfully",
      });
      const stored = (await ctx.tenant.call("GET", "/policy-holder/PH-001")).json();
      assert.deepEqual(stored.data, {
        ph_erp_id: "PH-001",
        name: "Al Safa Trading",
        insurance_type: "VIP",
        province: "Riyadh",
        registration_number: "CR-1010",
      });
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "policy_holder", "PH-001"), [
        "policy_holder.create",
      ]);
    });

    for (const [label, overrides, says] of [
      ["ph_erp_id", { name: "New name", registration_number: "CR-NEW" }, "ph_erp_id"],
      ["name", { ph_erp_id: "PH-NEW", registration_number: "CR-NEW" }, "name"],
      ["registration_number", { ph_erp_id: "PH-NEW", name: "New name" }, "registration_number"],
    ] as const) {
      it(`answers 409 {code, message} for a duplicate ${label}`, async () => {
        const res = await ctx.tenant.call("POST", "/policy-holder/create", holder(overrides));
        assert.equal(res.statusCode, 409);
        const body = res.json();
        assert.deepEqual(Object.keys(body).sort(), ["code", "message"]);
        assert.equal(body.code, 409);
        assert.match(body.message, new RegExp(says));
        assert.equal((await ctx.tenant.call("GET", "/policy-holder/PH-NEW")).statusCode, 404);
      });
    }

    it("allows several holders without a registration number", async () => {
      for (const ph_erp_id of ["PH-NOREG-1", "PH-NOREG-2"]) {
        const res = await ctx.tenant.call("POST", "/policy-holder/create", {
          ph_erp_id,
          name: ph_erp_id,
          insurance_type: "NORMAL",
        });
        assert.equal(res.statusCode, 201);
      }
    });

    for (const [label, overrides, says] of [
      ["a missing ph_erp_id", { ph_erp_id: undefined }, "ph_erp_id is required"],
      [
        "a ph_erp_id over 50 characters",
        { ph_erp_id: "p".repeat(51) },
        "ph_erp_id must not have more than 50",
      ],
      ["a non-alphanumeric ph_erp_id", { ph_erp_id: "PH 1!" }, "ph_erp_id must contain only"],
      ["a missing name", { name: undefined }, "name is required"],
      ["a missing insurance_type", { insurance_type: undefined }, "insurance_type is required"],
      [
        "an unknown insurance_type",
        { insurance_type: "GOLD" },
        "insurance_type must be one of: NORMAL, VIP, VVIP",
      ],
      ["an empty province", { province: "" }, "province must not have fewer than 1"],
    ] as const) {
      it(`answers 400 {code, message} for ${label}`, async () => {
        const res = await ctx.tenant.call(
          "POST",
          "/policy-holder/create",
          holder({ ph_erp_id: "PH-BAD", ...overrides }),
        );
        assert.equal(res.statusCode, 400);
        const body = res.json();
        assert.equal(body.code, 400);
        assert.ok(body.message.includes(says), `${body.message} should say ${says}`);
      });
    }

    it("answers 401 {code, message} without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "POST",
        url: `/${ctx.tenant.name}/v4.0/health/policy-holder/create`,
        payload: holder({ ph_erp_id: "PH-NOKEY" }),
      });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), { code: 401, message: "Unauthorized" });
    });
  });

  describe("PATCH /policy-holder/update", () => {
    it("changes only the fields sent and answers the holder", async () => {
      const res = await ctx.tenant.call("PATCH", "/policy-holder/update", {
        identifier: "PH-001",
        province: "Makkah",
        insurance_type: "VVIP",
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        message: "Policy holder updated successfully",
        data: {
          ph_erp_id: "PH-001",
          name: "Al Safa Trading",
          insurance_type: "VVIP",
          province: "Makkah",
          registration_number: "CR-1010",
        },
      });
    });

    it("answers 404 {code, message} for an unknown holder", async () => {
      const res = await ctx.tenant.call("PATCH", "/policy-holder/update", {
        identifier: "PH-NONE",
        name: "x",
      });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 404);
    });

    it("answers 409 when the new name or registration number belongs to another holder", async () => {
      for (const change of [{ name: "Other Co" }, { registration_number: "CR-OTHER" }]) {
        const res = await ctx.tenant.call("PATCH", "/policy-holder/update", {
          identifier: "PH-001",
          ...change,
        });
        assert.equal(res.statusCode, 409);
        assert.equal(res.json().code, 409);
      }
      assert.equal(
        (await ctx.tenant.call("GET", "/policy-holder/PH-001")).json().data.name,
        "Al Safa Trading",
      );
    });

    it("answers 400 without an identifier or with an invalid value", async () => {
      for (const body of [{ name: "x" }, { identifier: "PH-001", insurance_type: "GOLD" }]) {
        const res = await ctx.tenant.call("PATCH", "/policy-holder/update", body);
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().code, 400);
      }
    });

    it("answers 404 reading an unknown holder", async () => {
      const res = await ctx.tenant.call("GET", "/policy-holder/PH-NONE");
      assert.deepEqual([res.statusCode, res.json().code], [404, 404]);
    });
  });
});
