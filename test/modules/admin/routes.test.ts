import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestContext, uniqueName } from "../../helpers.js";

const TOKEN = "operator-token-0123456789";

describe("operator API", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({ MIZAN_ADMIN_TOKEN: TOKEN });
  });
  after(() => ctx.close());

  const admin = (method: "GET" | "POST", payload?: unknown, token = TOKEN) =>
    ctx.app.inject({
      method,
      url: "/admin/v1/tenants",
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it("creates a tenant whose credentials work at once, under its own path only", async () => {
    const name = uniqueName("op");
    const res = await admin("POST", { name, mode: "lightweight" });
    assert.equal(res.statusCode, 201);
    const body = res.json();
    assert.equal(body.name, name);
    assert.equal(body.mode, "lightweight");
    assert.match(body.api_key, /^mzk_/);
    assert.match(body.client_id, /^mzc_/);
    assert.match(body.client_secret, /^mzs_/);

    const own = await ctx.app.inject({
      method: "GET",
      url: `/${name}/v4.0/health/network/find-all`,
      headers: { "access-key": body.api_key },
    });
    assert.equal(own.statusCode, 200);
    const foreign = await ctx.app.inject({
      method: "GET",
      url: `/${ctx.tenant.name}/v4.0/health/network/find-all`,
      headers: { "access-key": body.api_key },
    });
    assert.equal(foreign.statusCode, 401);

    const list = (await admin("GET")).json();
    const listed = list.data.find((t: { name: string }) => t.name === name);
    assert.equal(listed.mode, "lightweight");
    assert.match(listed.created_at, /^\d{4}-\d{2}-\d{2}T/);
  });

  it("defaults the mode to standard", async () => {
    const res = await admin("POST", { name: uniqueName("op") });
    assert.equal(res.json().mode, "standard");
  });

  it("answers 409 for an existing name", async () => {
    const res = await admin("POST", { name: ctx.tenant.name });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().ErrorCode, "E_TENANT_EXISTS_409");
  });

  it("answers 400 for a bad name or mode", async () => {
    for (const payload of [
      { name: "Upper" },
      { name: "" },
      { name: "x".repeat(64) },
      { name: "ok", mode: "turbo" },
    ]) {
      const res = await admin("POST", payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
    }
  });

  it("answers 401 without the operator token or with a wrong one", async () => {
    assert.equal((await admin("GET", undefined, "wrong")).statusCode, 401);
    const bare = await ctx.app.inject({ method: "GET", url: "/admin/v1/tenants" });
    assert.equal(bare.statusCode, 401);
    const tenantKey = await ctx.app.inject({
      method: "GET",
      url: "/admin/v1/tenants",
      headers: { authorization: `Bearer ${ctx.tenant.apiKey}` },
    });
    assert.equal(tenantKey.statusCode, 401);
  });
});

describe("operator API without MIZAN_ADMIN_TOKEN", () => {
  it("does not exist", async () => {
    const ctx = await startTestApp();
    try {
      const res = await ctx.app.inject({
        method: "GET",
        url: "/admin/v1/tenants",
        headers: { authorization: "Bearer x" },
      });
      assert.equal(res.statusCode, 404);
    } finally {
      await ctx.close();
    }
  });
});
