import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";

const member = (overrides: Record<string, unknown> = {}) => ({
  member_id: "MBR-0001",
  national_id: "1012345678",
  gender: "FEMALE",
  marital_status: "MARRIED",
  date_of_birth: "1990-04-12T00:00:00.000Z",
  name: "Noura Al-Harbi",
  card: "CARD-1",
  email: "noura@example.sa",
  relation: "SELF",
  passport: "P123",
  visit_visa_number: "V1",
  phone_number: "+966500000000",
  address: "Riyadh",
  nationality: "SA",
  ...overrides,
});

describe("member", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  describe("POST /member/create", () => {
    it("creates a member and answers member_id and name", async () => {
      const res = await ctx.tenant.call("POST", "/member/create", member());
      assert.equal(res.statusCode, 201);
      assert.deepEqual(res.json(), {
        member_id: "MBR-0001",
        name: "Noura Al-Harbi",
        code: 201,
        message: "Member created successfully",
      });
      const stored = (await ctx.tenant.call("GET", "/member/MBR-0001")).json();
      assert.equal(stored.date_of_birth, "1990-04-12T00:00:00.000Z");
      assert.equal(stored.passport, "P123");
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "member", "MBR-0001"), ["member.create"]);
    });

    it("needs only the required fields", async () => {
      const res = await ctx.tenant.call("POST", "/member/create", {
        member_id: "MBR-MIN",
        national_id: "2000000001",
        gender: "MALE",
        marital_status: "SINGLE",
        date_of_birth: "2001-01-01T08:30:00.000Z",
      });
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().name, null);
    });

    it("answers 409 CONFLICT for an existing member_id", async () => {
      const res = await ctx.tenant.call("POST", "/member/create", member({ name: "Someone else" }));
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "CONFLICT");
      assert.equal((await ctx.tenant.call("GET", "/member/MBR-0001")).json().name, "Noura Al-Harbi");
    });

    for (const [label, overrides, detail] of [
      ["a missing member_id", { member_id: undefined }, "member_id is required"],
      ["a member_id with spaces", { member_id: "MBR 1" }, "member_id must contain only letters, digits"],
      [
        "a member_id over 255 characters",
        { member_id: "m".repeat(256) },
        "member_id must not have more than 255",
      ],
      ["a missing national_id", { national_id: undefined }, "national_id is required"],
      ["an unknown gender", { gender: "OTHER" }, "gender must be one of: MALE, FEMALE"],
      ["an unknown marital_status", { marital_status: "COMPLICATED" }, "marital_status must be one of: "],
      ["a date without time", { date_of_birth: "1990-04-12" }, "date_of_birth must be a date-time"],
      [
        "an impossible date",
        { date_of_birth: "1990-02-30T00:00:00.000Z" },
        "date_of_birth must be a date-time",
      ],
      [
        "a future date of birth",
        { date_of_birth: "2999-01-01T00:00:00.000Z" },
        "date_of_birth must not be in the future",
      ],
      ["an invalid e-mail", { email: "not-an-email" }, "email must be a valid e-mail address"],
      ["an unknown relation", { relation: "COUSIN" }, "relation must be one of: "],
      ["an empty name", { name: "" }, "name must not have fewer than 1 characters"],
    ] as const) {
      it(`answers 400 VALIDATION_ERROR naming the field for ${label}`, async () => {
        const res = await ctx.tenant.call(
          "POST",
          "/member/create",
          member({ member_id: "MBR-BAD", ...overrides }),
        );
        assert.equal(res.statusCode, 400);
        const body = res.json();
        assert.equal(body.ErrorCode, "VALIDATION_ERROR");
        assert.ok(
          body.details.some((d: string) => d.startsWith(detail)),
          `${JSON.stringify(body.details)} should name ${detail}`,
        );
      });
    }

    it("answers 401 UNAUTHORIZED without a valid access-key", async () => {
      for (const headers of [{}, { "access-key": "nope" }]) {
        const res = await ctx.app.inject({
          method: "POST",
          url: `/${ctx.tenant.name}/v4.0/health/member/create`,
          headers,
          payload: member({ member_id: "MBR-NOKEY" }),
        });
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { ErrorCode: "UNAUTHORIZED", message: "Unauthorized", details: [] });
      }
      assert.equal((await ctx.tenant.call("GET", "/member/MBR-NOKEY")).statusCode, 404);
    });
  });

  describe("PATCH /member/:member_id", () => {
    before(async () => {
      await ctx.tenant.call("POST", "/member/create", member({ member_id: "MBR-UPD" }));
    });

    it("changes only the fields sent and answers the member", async () => {
      const res = await ctx.tenant.call("PATCH", "/member/MBR-UPD", {
        marital_status: "DIVORCED",
        phone_number: "+966511111111",
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        member_id: "MBR-UPD",
        national_id: "1012345678",
        gender: "FEMALE",
        marital_status: "DIVORCED",
        date_of_birth: "1990-04-12T00:00:00.000Z",
        name: "Noura Al-Harbi",
        card: "CARD-1",
        email: "noura@example.sa",
        relation: "SELF",
        passport: "P123",
        visit_visa_number: "V1",
        phone_number: "+966511111111",
        address: "Riyadh",
        nationality: "SA",
        code: 200,
        message: "Member updated successfully",
      });
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "member", "MBR-UPD"), [
        "member.create",
        "member.update",
      ]);
    });

    it("answers 404 NOT_FOUND for an unknown member", async () => {
      const res = await ctx.tenant.call("PATCH", "/member/NOBODY", { name: "x" });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, "NOT_FOUND");
    });

    it("answers 400 VALIDATION_ERROR for an invalid field, changing nothing", async () => {
      const res = await ctx.tenant.call("PATCH", "/member/MBR-UPD", { name: "Changed", gender: "X" });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().ErrorCode, "VALIDATION_ERROR");
      assert.equal((await ctx.tenant.call("GET", "/member/MBR-UPD")).json().name, "Noura Al-Harbi");
    });

    it("answers 401 UNAUTHORIZED without an access-key", async () => {
      const res = await ctx.app.inject({
        method: "PATCH",
        url: `/${ctx.tenant.name}/v4.0/health/member/MBR-UPD`,
        payload: { name: "x" },
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().ErrorCode, "UNAUTHORIZED");
    });
  });
});
