import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { unstorableTextErrors } from "../../../src/platform/http/validation.js";
import { startTestApp, type TestContext } from "../../helpers.js";
import { createHolder } from "../../modules/policies/fixtures.js";

describe("input no column can hold", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("refuses NUL in a body string by name, in the route's error shape, and stores nothing", async () => {
    const res = await ctx.tenant.call("POST", "/network/create", { name: "Gold\u0000" });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      ErrorCode: "E_BAD_REQUEST_400",
      message: "name must not contain NUL characters or unpaired surrogates",
      details: ["name must not contain NUL characters or unpaired surrogates"],
    });
    const listed = await ctx.tenant.call("GET", "/network/find-all?limit=100");
    assert.equal(listed.json().total_count, 0);
  });

  it("refuses NUL in a nested field and names its path", async () => {
    const res = await ctx.tenant.call("POST", "/approval-request/create", {
      transaction_id: "T-NUL",
      items: [{ unit: "a\u0000b" }],
    });
    assert.equal(res.statusCode, 400);
  });

  it("refuses NUL in a path parameter and in a query value", async () => {
    const member = await ctx.tenant.call("GET", "/member/a%00b");
    assert.equal(member.statusCode, 400);
    assert.equal(member.json().ErrorCode, "VALIDATION_ERROR", "the members' shape");
    assert.match(member.json().message, /^member_id /);
    const update = await ctx.tenant.call("PATCH", "/approval-request/update/a%00b", {});
    assert.equal(update.statusCode, 400);
    await createHolder(ctx.tenant, "PH-NUL");
    const holder = await ctx.tenant.call("PATCH", "/policy-holder/update?ph_erp_id=%00", { name: "x" });
    assert.equal(holder.statusCode, 400);
    assert.equal(holder.json().code, 400, "the policy holders' shape");
  });

  it("refuses a lone surrogate, and keeps a real pair", async () => {
    const lone = await ctx.app.inject({
      method: "POST",
      url: `/${ctx.tenant.name}/v4.0/health/network/create`,
      headers: { "access-key": ctx.tenant.apiKey, "content-type": "application/json" },
      payload: '{"name": "Gold \\ud800"}',
    });
    assert.equal(lone.statusCode, 400);
    assert.match(lone.json().message, /^name must not contain/);
    const pair = await ctx.tenant.call("POST", "/network/create", { name: "Gold 😀" });
    assert.equal(pair.statusCode, 201);
    assert.equal(pair.json().name, "Gold 😀");
  });

  it("refuses an integer path parameter beyond the database's range by name", async () => {
    for (const id of ["99999999999999999999999", "2147483648", "-2147483649"]) {
      const res = await ctx.tenant.call("PATCH", `/network/update/${id}`, { name: "x" });
      assert.equal(res.statusCode, 400, id);
      assert.match(res.json().message, /^id must be/, id);
    }
    const inRange = await ctx.tenant.call("PATCH", "/network/update/2147483647", { name: "x" });
    assert.equal(inRange.statusCode, 404, "the largest id is looked up, and not found");
  });

  it("walks any depth without recursion", () => {
    let deep: unknown = "x\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [error] = unstorableTextErrors({ a: deep });
    assert.equal(error?.instancePath, `/a${"/0".repeat(100_000)}`);
  });
});
