import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Queryable } from "../../../src/platform/db/db.js";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";
import { createHolder, createMember, createPolicy, query } from "../policies/fixtures.js";

const key = { ph_erp_id: "PH1", policy_no: "POL-T" };

/** a prior authorization with its items, as the prior-authorization area stores them */
async function priorAuthorization(
  db: Queryable,
  tenantId: number,
  request: { transactionId: string; memberId: string; policyNo: string; status: string },
  items: { benefit: number | null; sub: number | null; approved: string; exgratia?: string }[],
) {
  const [pa] = await db.query<{ id: number }>(
    `INSERT INTO prior_authorizations (tenant_id, transaction_id, member_pk, policy_id, status)
     SELECT $1, $2, m.id, p.id, $5 FROM members m, policies p
     WHERE m.tenant_id = $1 AND m.member_id = $3 AND p.tenant_id = $1 AND p.policy_no = $4 RETURNING id`,
    [tenantId, request.transactionId, request.memberId, request.policyNo, request.status],
  );
  for (const item of items)
    await db.query(
      `INSERT INTO prior_authorization_items (tenant_id, prior_authorization_id, benefit_code, sub_benefit_code,
         approved_amount, exgratia_amount) VALUES ($1, $2, $3, $4, $5, $6)`,
      [tenantId, pa?.id, item.benefit, item.sub, item.approved, item.exgratia ?? "0"],
    );
}

describe("policy template and consumption", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
    await createHolder(ctx.tenant, "PH1");
    await createMember(ctx.tenant, "M1");
    await createMember(ctx.tenant, "M2");
    await createPolicy(ctx.tenant, "PH1", "POL-T", {
      add_patient_to_policy: {
        member_id: "M1",
        category_code: "GOLD",
        start_date: "2026-01-01",
        end_date: "2026-12-31",
      },
    });
  });
  after(() => ctx.close());

  describe("template", () => {
    it("adds a category, a benefit with sub-benefits, and a sub-benefit", async () => {
      const category = await ctx.tenant.call("POST", "/policy/template/category", {
        ...key,
        category_code: "GOLD",
        amount_eligible: 50000,
      });
      assert.equal(category.statusCode, 201);
      assert.deepEqual(category.json(), { code: 201, message: "Category added successfully" });
      const benefit = await ctx.tenant.call("POST", "/policy/template/benefit", {
        ...key,
        category_code: "GOLD",
        benefit_code: 10,
        benefit_description: "Outpatient",
        limit: 20000.5,
        sub_benefits: [
          { sub_benefit_code: 101, sub_benefit_description: "Consultation", limit: 5000 },
          { sub_benefit_code: 102, limit: 3000.25 },
        ],
      });
      assert.equal(benefit.statusCode, 201, benefit.body);
      const sub = await ctx.tenant.call("POST", "/policy/template/sub-benefit", {
        ...key,
        category_code: "GOLD",
        benefit_code: 10,
        sub_benefit_code: 103,
        sub_benefit_description: "Lab",
        limit: 1000,
      });
      assert.equal(sub.statusCode, 201, sub.body);
      const benefit2 = await ctx.tenant.call("POST", "/policy/template/benefit", {
        ...key,
        category_code: "GOLD",
        benefit_code: 20,
        limit: 10000,
      });
      assert.equal(benefit2.statusCode, 201);

      const template = await ctx.tenant.call("GET", `/policy/template${query(key)}`);
      assert.equal(template.statusCode, 200);
      assert.deepEqual(template.json().categories, [
        {
          category_code: "GOLD",
          amount_eligible: 50000,
          benefits: [
            {
              benefit_code: 10,
              benefit_description: "Outpatient",
              limit: 20000.5,
              sub_benefits: [
                { sub_benefit_code: 101, sub_benefit_description: "Consultation", limit: 5000 },
                { sub_benefit_code: 102, sub_benefit_description: null, limit: 3000.25 },
                { sub_benefit_code: 103, sub_benefit_description: "Lab", limit: 1000 },
              ],
            },
            { benefit_code: 20, benefit_description: null, limit: 10000, sub_benefits: [] },
          ],
        },
      ]);
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "policy-template", "PH1/POL-T/GOLD/10"), [
        "policy-template.benefit.create",
      ]);
    });

    it("answers 409 E_EPA_069 when a code is added twice", async () => {
      const again = await ctx.tenant.call("POST", "/policy/template/category", {
        ...key,
        category_code: "GOLD",
        amount_eligible: 1,
      });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().ErrorCode, "E_EPA_069");
      const sub = await ctx.tenant.call("POST", "/policy/template/sub-benefit", {
        ...key,
        category_code: "GOLD",
        benefit_code: 10,
        sub_benefit_code: 101,
        limit: 1,
      });
      assert.equal(sub.statusCode, 409);
    });

    it("answers 404 E_EBA_01 for a missing benefit or category", async () => {
      const noBenefit = await ctx.tenant.call("POST", "/policy/template/sub-benefit", {
        ...key,
        category_code: "GOLD",
        benefit_code: 99,
        sub_benefit_code: 1,
        limit: 1,
      });
      assert.equal(noBenefit.statusCode, 404);
      assert.equal(noBenefit.json().ErrorCode, "E_EBA_01");
      const noCategory = await ctx.tenant.call("POST", "/policy/template/benefit", {
        ...key,
        category_code: "SILVER",
        benefit_code: 1,
        limit: 1,
      });
      assert.equal(noCategory.statusCode, 404);
      assert.equal(noCategory.json().ErrorCode, "E_EBA_01");
      assert.match(noCategory.json().message, /Category SILVER/);
    });

    it("answers 404 E_EPH_01 and E_EPA_014", async () => {
      const body = { category_code: "X", amount_eligible: 1 };
      const noHolder = await ctx.tenant.call("POST", "/policy/template/category", {
        ...body,
        ph_erp_id: "NOPE",
        policy_no: "POL-T",
      });
      assert.equal(noHolder.json().ErrorCode, "E_EPH_01");
      const noPolicy = await ctx.tenant.call("PATCH", "/policy/template/category", {
        ...body,
        ph_erp_id: "PH1",
        policy_no: "NOPE",
      });
      assert.equal(noPolicy.statusCode, 404);
      assert.equal(noPolicy.json().ErrorCode, "E_EPA_014");
    });

    it("answers 400 for amounts with three decimals, negative limits, out-of-range codes and duplicates", async () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          "/policy/template/category",
          { category_code: "Z", amount_eligible: 1.005 },
          /amount_eligible must have at most 2 decimals/,
        ],
        [
          "/policy/template/benefit",
          { category_code: "GOLD", benefit_code: 30, limit: -1 },
          /limit must be >= 0/,
        ],
        [
          "/policy/template/benefit",
          { category_code: "GOLD", benefit_code: 10_000_000, limit: 1 },
          /benefit_code/,
        ],
        [
          "/policy/template/benefit",
          {
            category_code: "GOLD",
            benefit_code: 31,
            limit: 1,
            sub_benefits: [
              { sub_benefit_code: 1, limit: 1 },
              { sub_benefit_code: 1, limit: 2 },
            ],
          },
          /sub_benefits\[1\].sub_benefit_code duplicates sub_benefits\[0\]/,
        ],
        ["/policy/template/category", { category_code: "Z" }, /amount_eligible is required/],
      ];
      for (const [path, body, message] of cases) {
        const res = await ctx.tenant.call("POST", path, { ...key, ...body });
        assert.equal(res.statusCode, 400, `${path} ${JSON.stringify(body)}`);
        assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
        assert.match(res.json().details.join("\n"), message);
      }
      const template = (await ctx.tenant.call("GET", `/policy/template${query(key)}`)).json();
      assert.deepEqual(
        template.categories[0].benefits.map((b: { benefit_code: number }) => b.benefit_code),
        [10, 20],
      );
    });

    it("updates a category's amount and a benefit's limit", async () => {
      const category = await ctx.tenant.call("PATCH", "/policy/template/category", {
        ...key,
        category_code: "GOLD",
        amount_eligible: 60000,
      });
      assert.equal(category.statusCode, 200);
      assert.deepEqual(category.json(), {
        ...key,
        category_code: "GOLD",
        amount_eligible: 60000,
        code: 200,
        message: "Category updated successfully",
      });
      const benefit = await ctx.tenant.call("PATCH", "/policy/template/benefit", {
        ...key,
        category_code: "GOLD",
        benefit_code: 10,
        limit: 25000,
      });
      assert.equal(benefit.statusCode, 200);
      assert.equal(benefit.json().limit, 25000);
      assert.equal(benefit.json().benefit_description, "Outpatient");
      const missing = await ctx.tenant.call("PATCH", "/policy/template/benefit", {
        ...key,
        category_code: "GOLD",
        benefit_code: 77,
        limit: 1,
      });
      assert.equal(missing.json().ErrorCode, "E_EBA_01");
    });
  });

  describe("GET /policy/patient/consumption/get", () => {
    const consumption = (memberId: string, policyNo = "POL-T", phErpId = "PH1") =>
      ctx.tenant.call(
        "GET",
        `/policy/patient/consumption/get${query({ ph_erp_id: phErpId, policy_no: policyNo, member_id: memberId })}`,
      );

    it("reports the limits with nothing utilized before any prior authorization", async () => {
      const res = await consumption("M1");
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.member_id, "M1");
      assert.equal(body.category_code, "GOLD");
      assert.equal(body.amount_eligible, 60000);
      assert.equal(body.amount_utilized, 0);
      assert.equal(body.amount_exgratia, 0);
      assert.deepEqual(body.benefit_consumption, [
        { benefit_code: 10, limit: 25000, utilized: 0 },
        { benefit_code: 20, limit: 10000, utilized: 0 },
      ]);
      assert.equal(body.sub_benefit_consumption.length, 3);
    });

    it("sums approved amounts of requests that are not rejected or cancelled, exactly", async () => {
      const base = { memberId: "M1", policyNo: "POL-T" };
      await priorAuthorization(ctx.db, ctx.tenant.id, { ...base, transactionId: "T1", status: "ACCEPTED" }, [
        { benefit: 10, sub: 101, approved: "100.10" },
        { benefit: 10, sub: 101, approved: "0.20" },
        { benefit: 10, sub: 103, approved: "50.00", exgratia: "5.55" },
        { benefit: 20, sub: null, approved: "1000.00" },
      ]);
      await priorAuthorization(ctx.db, ctx.tenant.id, { ...base, transactionId: "T2", status: "PENDING" }, [
        { benefit: 10, sub: 102, approved: "0.10" },
      ]);
      await priorAuthorization(ctx.db, ctx.tenant.id, { ...base, transactionId: "T3", status: "REJECTED" }, [
        { benefit: 10, sub: 101, approved: "999.00" },
      ]);
      await priorAuthorization(ctx.db, ctx.tenant.id, { ...base, transactionId: "T4", status: "CANCELLED" }, [
        { benefit: 20, sub: null, approved: "999.00" },
      ]);
      const body = (await consumption("M1")).json();
      assert.equal(body.amount_utilized, 1150.4);
      assert.equal(body.amount_exgratia, 5.55);
      assert.deepEqual(body.benefit_consumption, [
        { benefit_code: 10, limit: 25000, utilized: 150.4 },
        { benefit_code: 20, limit: 10000, utilized: 1000 },
      ]);
      assert.deepEqual(body.sub_benefit_consumption, [
        { sub_benefit_code: 101, benefit_code: 10, limit: 5000, utilized: 100.3 },
        { sub_benefit_code: 102, benefit_code: 10, limit: 3000.25, utilized: 0.1 },
        { sub_benefit_code: 103, benefit_code: 10, limit: 1000, utilized: 50 },
      ]);
    });

    it("answers 404 E_EPH_01, E_EPA_014 and E_EPA_01", async () => {
      assert.equal((await consumption("M1", "POL-T", "NOPE")).json().ErrorCode, "E_EPH_01");
      assert.equal((await consumption("M1", "NOPE")).json().ErrorCode, "E_EPA_014");
      assert.equal((await consumption("GHOST")).json().ErrorCode, "E_EPA_01");
      const notOnPolicy = await consumption("M2");
      assert.equal(notOnPolicy.statusCode, 404);
      assert.equal(notOnPolicy.json().ErrorCode, "E_EPA_01");
    });

    it("answers 400 when a query parameter is missing, and 401 without a key", async () => {
      const res = await ctx.tenant.call("GET", `/policy/patient/consumption/get${query(key)}`);
      assert.equal(res.statusCode, 400);
      assert.match(res.json().details[0], /member_id is required/);
      const anonymous = await ctx.app.inject({
        method: "GET",
        url: `/${ctx.tenant.name}/v4.0/health/policy/patient/consumption/get${query({ ...key, member_id: "M1" })}`,
      });
      assert.equal(anonymous.statusCode, 401);
    });

    it("is not visible to another tenant", async () => {
      const other = await ctx.newTenant();
      const res = await other.call(
        "GET",
        `/policy/patient/consumption/get${query({ ...key, member_id: "M1" })}`,
      );
      assert.equal(res.statusCode, 404);
    });
  });
});
