import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestContext } from "../../helpers.js";
import { expectStatus, labTest, requestBody, setUpStandard } from "./fixtures.js";

type Created = { items_results: { approved_amount: number }[] };

/**
 * A create decides without holding the member and writes only if no other adjudication of the member
 * committed since its reads; otherwise it decides again holding the member. Simultaneous requests of one
 * member must therefore spend a limit exactly as if they had come one after another.
 */
describe("simultaneous creates for one member", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
    await setUpStandard(ctx.tenant);
  });
  after(() => ctx.close());

  it("spend benefit 2's limit of 1,000 exactly: five of eight requests for two lab tests approved", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        expectStatus(
          ctx.tenant.call(
            "POST",
            "/approval-request/create",
            // 35 days apart, so that no request repeats another's service within the 30-day window
            requestBody({
              treatment_date: new Date(Date.UTC(2026, 0, 1 + 35 * n, 9)).toISOString(),
              items: [labTest({ erp_item_id: `L${n}`, claimed_quantity: 2, claimed_amount: 200 })],
            }),
          ),
          201,
        ),
      ),
    );
    const approved = (answers as Created[]).map((answer) => answer.items_results[0]?.approved_amount);
    assert.equal(
      approved.reduce((sum: number, amount) => sum + (amount ?? 0), 0),
      1000,
      `approved: ${approved.join(", ")}`,
    );
    assert.equal(approved.filter((amount) => amount === 200).length, 5, `approved: ${approved.join(", ")}`);
    const stored = await ctx.db.query<{ total: string }>(
      `SELECT sum(i.approved_amount)::text AS total FROM prior_authorization_items i
       JOIN prior_authorizations pa ON pa.id = i.prior_authorization_id
       WHERE pa.tenant_id = $1 AND i.benefit_code = 2`,
      [ctx.tenant.id],
    );
    assert.equal(Number(stored[0]?.total), 1000);
  });

  it("takes the member's version once for each adjudication", async () => {
    const earlier = await ctx.db.query<{ version: number }>(
      "SELECT version FROM members WHERE tenant_id = $1 AND member_id = 'M1'",
      [ctx.tenant.id],
    );
    await expectStatus(
      ctx.tenant.call("POST", "/approval-request/create", requestBody({ items: [labTest()] })),
      201,
    );
    const later = await ctx.db.query<{ version: number }>(
      "SELECT version FROM members WHERE tenant_id = $1 AND member_id = 'M1'",
      [ctx.tenant.id],
    );
    assert.equal(Number(later[0]?.version), Number(earlier[0]?.version) + 1);
  });
});
