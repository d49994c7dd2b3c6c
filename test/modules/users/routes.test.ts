import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { auditActions, startTestApp, type TestContext } from "../../helpers.js";

describe("reviewer users", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("creates a user, refuses a duplicate with 409 E_CONFLICT_409, and lists users", async () => {
    const res = await ctx.tenant.call("POST", "/user/create", {
      username: "reviewer.1",
      name: "Dr. Sara",
      email: "sara@tpa.sa",
    });
    assert.equal(res.statusCode, 201);
    const body = res.json();
    assert.deepEqual(
      { ...body, id: typeof body.id },
      { id: "number", username: "reviewer.1", code: 201, message: "User created successfully" },
    );

    const dup = await ctx.tenant.call("POST", "/user/create", { username: "reviewer.1" });
    assert.equal(dup.statusCode, 409);
    assert.equal(dup.json().ErrorCode, "E_CONFLICT_409");

    await ctx.tenant.call("POST", "/user/create", { username: "reviewer.2" });
    const list = (await ctx.tenant.call("GET", "/user/find-all")).json();
    assert.equal(list.total_count, 2);
    assert.deepEqual(list.data[0], {
      id: body.id,
      username: "reviewer.1",
      name: "Dr. Sara",
      email: "sara@tpa.sa",
    });
    assert.equal((await ctx.tenant.call("GET", "/user/find-all?username=2")).json().total_count, 1);
    assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "user", "reviewer.1"), ["user.create"]);
  });

  it("answers 400 naming the field for a missing or too long username, or a bad e-mail", async () => {
    for (const [payload, detail] of [
      [{}, "username is required"],
      [{ username: "u".repeat(256) }, "username must not have more than 255 characters"],
      [{ username: "ok", email: "nope" }, "email must be a valid e-mail address"],
    ] as const) {
      const res = await ctx.tenant.call("POST", "/user/create", payload);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json().details, [detail]);
    }
  });
});
