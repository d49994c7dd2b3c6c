import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestContext } from "../../helpers.js";

/** fires `count` identical requests at once and tallies their statuses */
async function race(
  count: number,
  send: () => Promise<{ statusCode: number }>,
): Promise<Record<number, number>> {
  const results = await Promise.all(Array.from({ length: count }, send));
  const tally: Record<number, number> = {};
  for (const { statusCode } of results) tally[statusCode] = (tally[statusCode] ?? 0) + 1;
  return tally;
}

describe("concurrent duplicate creates", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  const cases: [string, string, Record<string, unknown>][] = [
    ["network", "/network/create", { name: "Racing network" }],
    [
      "medical provider",
      "/medical-provider/create",
      { name: "Race clinic", city: "Riyadh", cchi_no: "RACE-1" },
    ],
    [
      "member",
      "/member/create",
      {
        member_id: "RACE-M",
        national_id: "1",
        gender: "MALE",
        marital_status: "SINGLE",
        date_of_birth: "1980-01-01T00:00:00.000Z",
      },
    ],
    [
      "policy holder",
      "/policy-holder/create",
      { ph_erp_id: "RACE-PH", name: "Race Co", insurance_type: "NORMAL" },
    ],
    ["user", "/user/create", { username: "racer" }],
  ];

  for (const [what, path, body] of cases) {
    it(`gives one 201 and nine 409 for ten simultaneous ${what} creates`, async () => {
      const tally = await race(10, () => ctx.tenant.call("POST", path, body));
      assert.deepEqual(tally, { 201: 1, 409: 9 });
    });
  }

  it("leaves exactly one row behind", async () => {
    const networks = (await ctx.tenant.call("GET", "/network/find-all?name=Racing")).json();
    assert.equal(networks.total_count, 1);
    // the trigger-kept count of the unfiltered list must not count the nine rolled-back inserts
    assert.equal((await ctx.tenant.call("GET", "/network/find-all")).json().total_count, 1);
    const members = await ctx.db.query<{ n: number }>(
      "SELECT count(*) AS n FROM members WHERE tenant_id = $1",
      [ctx.tenant.id],
    );
    assert.equal(members[0]?.n, 1);
  });
});
