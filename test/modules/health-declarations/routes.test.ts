import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TenantClient, type TestContext } from "../../helpers.js";

const MEMBER_ID = randomUUID();

const declaration = (overrides: Record<string, unknown> = {}) => ({
  member_id: MEMBER_ID,
  erp_ph_id: "PH-HD-1",
  policy_no: "POL-HD-1",
  health_declaration_caption: "Do you have a chronic disease?",
  health_declaration_caption2: "If yes, which one?",
  health_declaration_type: "CHRONIC",
  health_declaration_value: "YES",
  ...overrides,
});

interface StoredDeclaration {
  member_id: string;
  ph_erp_id: string;
  policy_no: string;
  caption: string | null;
  caption2: string | null;
  declaration_type: string;
  declaration_value: string | null;
}

describe("health declaration", () => {
  let ctx: TestContext;

  /** a holder and a member over HTTP, and the holder's policy in SQL (the policies API is not built yet) */
  async function seed(tenant: TenantClient, phErpId: string, policyNo: string, memberId?: string) {
    const holder = await tenant.call("POST", "/policy-holder/create", {
      ph_erp_id: phErpId,
      name: `Holder ${phErpId}`,
      insurance_type: "NORMAL",
    });
    assert.equal(holder.statusCode, 201, holder.body);
    await ctx.db.query(
      `INSERT INTO policies (tenant_id, policy_holder_id, policy_no, start_date, end_date, created_date, status)
       SELECT $1, id, $3, '2025-01-01', '2025-12-31', '2025-01-01', 'ACTIVE'
       FROM policy_holders WHERE tenant_id = $1 AND ph_erp_id = $2`,
      [tenant.id, phErpId, policyNo],
    );
    if (memberId === undefined) return;
    const member = await tenant.call("POST", "/member/create", {
      member_id: memberId,
      national_id: "1012345678",
      gender: "MALE",
      marital_status: "SINGLE",
      date_of_birth: "1985-06-01T00:00:00.000Z",
    });
    assert.equal(member.statusCode, 201, member.body);
  }

  async function stored(id: number): Promise<StoredDeclaration | undefined> {
    const rows = await ctx.db.query<StoredDeclaration>(
      `SELECT m.member_id, h.ph_erp_id, p.policy_no, d.caption, d.caption2, d.declaration_type, d.declaration_value
       FROM health_declarations d JOIN members m ON m.id = d.member_pk
       JOIN policy_holders h ON h.id = d.policy_holder_id JOIN policies p ON p.id = d.policy_id
       WHERE d.tenant_id = $1 AND d.id = $2`,
      [ctx.tenant.id, id],
    );
    return rows[0];
  }

  const count = async () =>
    (
      await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM health_declarations WHERE tenant_id = $1",
        [ctx.tenant.id],
      )
    )[0]?.n;

  before(async () => {
    ctx = await startTestApp();
    await seed(ctx.tenant, "PH-HD-1", "POL-HD-1", MEMBER_ID);
    await seed(ctx.tenant, "PH-HD-2", "POL-HD-2");
  });
  after(() => ctx.close());

  it("stores a declaration and answers its internal id", async () => {
    const res = await ctx.tenant.call("POST", "/health-declarations/create", declaration());
    assert.equal(res.statusCode, 201);
    const body = res.json();
    assert.equal(typeof body.health_declaration_internal_id, "number");
    assert.deepEqual(
      { code: body.code, message: body.message },
      { code: 201, message: "Health declaration created successfully" },
    );
    assert.deepEqual(await stored(body.health_declaration_internal_id), {
      member_id: MEMBER_ID,
      ph_erp_id: "PH-HD-1",
      policy_no: "POL-HD-1",
      caption: "Do you have a chronic disease?",
      caption2: "If yes, which one?",
      declaration_type: "CHRONIC",
      declaration_value: "YES",
    });
    assert.deepEqual(
      await auditActions(
        ctx.db,
        ctx.tenant.id,
        "health_declaration",
        String(body.health_declaration_internal_id),
      ),
      ["health-declaration.create"],
    );
  });

  it("needs only member_id, erp_ph_id, policy_no and health_declaration_type", async () => {
    const res = await ctx.tenant.call("POST", "/health-declarations/create", {
      member_id: MEMBER_ID,
      erp_ph_id: "PH-HD-1",
      policy_no: "POL-HD-1",
      health_declaration_type: "SMOKER",
    });
    assert.equal(res.statusCode, 201);
    const row = await stored(res.json().health_declaration_internal_id);
    assert.deepEqual(
      [row?.caption, row?.caption2, row?.declaration_type, row?.declaration_value],
      [null, null, "SMOKER", null],
    );
  });

  for (const [label, overrides, code] of [
    [
      "an unknown member (checked first)",
      { member_id: "NOBODY", erp_ph_id: "NOPE", policy_no: "NOPE" },
      "E_EPA_01",
    ],
    [
      "an unknown policy holder (checked before the policy)",
      { erp_ph_id: "NOPE", policy_no: "NOPE" },
      "E_EPH_01",
    ],
    ["an unknown policy", { policy_no: "POL-NONE" }, "E_EPA_014"],
    ["a policy of another policy holder", { policy_no: "POL-HD-2" }, "E_EPA_014"],
  ] as const) {
    it(`answers 404 ${code} for ${label}, storing nothing`, async () => {
      const declarationsBefore = await count();
      const res = await ctx.tenant.call("POST", "/health-declarations/create", declaration(overrides));
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, code);
      assert.equal(await count(), declarationsBefore);
    });
  }

  for (const [label, overrides, detail] of [
    ["a missing member_id", { member_id: undefined }, "member_id is required"],
    ["a missing erp_ph_id", { erp_ph_id: undefined }, "erp_ph_id is required"],
    ["a missing policy_no", { policy_no: undefined }, "policy_no is required"],
    [
      "a missing health_declaration_type",
      { health_declaration_type: undefined },
      "health_declaration_type is required",
    ],
    ["an empty policy_no", { policy_no: "" }, "policy_no must not have fewer than 1 characters"],
    [
      "a member_id over 255 characters",
      { member_id: "m".repeat(256) },
      "member_id must not have more than 255",
    ],
    [
      "a health_declaration_type over 16 characters",
      { health_declaration_type: "T".repeat(17) },
      "health_declaration_type must not have more than 16",
    ],
    [
      "a health_declaration_value over 16 characters",
      { health_declaration_value: "V".repeat(17) },
      "health_declaration_value must not have more than 16",
    ],
    [
      "a caption over 4096 characters",
      { health_declaration_caption: "c".repeat(4097) },
      "health_declaration_caption must not have more than 4096",
    ],
    [
      "a blank caption2",
      { health_declaration_caption2: "   " },
      "health_declaration_caption2 must not be blank",
    ],
    ["a numeric value", { health_declaration_value: 1 }, "health_declaration_value must be string"],
  ] as const) {
    it(`answers 400 E_BAD_REQUEST_400 naming the field for ${label}`, async () => {
      const res = await ctx.tenant.call("POST", "/health-declarations/create", declaration(overrides));
      assert.equal(res.statusCode, 400);
      const body = res.json();
      assert.equal(body.ErrorCode, "E_BAD_REQUEST_400");
      assert.ok(
        body.details.some((d: string) => d.startsWith(detail)),
        `${JSON.stringify(body.details)} should name ${detail}`,
      );
    });
  }

  it("answers 401 without an access-key", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: `/${ctx.tenant.name}/v4.0/health/health-declarations/create`,
      payload: declaration(),
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().ErrorCode, "API key is required");
  });

  it("does not let another tenant declare against this tenant's member, holder or policy", async () => {
    const other = await ctx.newTenant();
    const res = await other.call("POST", "/health-declarations/create", declaration());
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().ErrorCode, "E_EPA_01");
    // with its own member, this tenant's holder and policy stay invisible
    await other.call("POST", "/member/create", {
      member_id: MEMBER_ID,
      national_id: "2000000001",
      gender: "FEMALE",
      marital_status: "SINGLE",
      date_of_birth: "1990-01-01T00:00:00.000Z",
    });
    const holderMissing = await other.call("POST", "/health-declarations/create", declaration());
    assert.equal(holderMissing.json().ErrorCode, "E_EPH_01");
  });
});
