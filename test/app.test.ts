import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../src/app.js";
import { createApiKeyAuthenticator, ensureBootstrapTenant } from "../src/modules/tenants/service.js";
import { loadMigrations, migrate } from "../src/platform/db/migrate.js";
import {
  idleJobQueue,
  openTestDb,
  startTestApp,
  type TestContext,
  testConfig,
  uniqueName,
} from "./helpers.js";

// keys are unique per run: a PostgreSQL test database outlives runs, and key hashes are unique
const KEY_500 = `key-${uniqueName()}`;
const KEY_TTL = `key-${uniqueName()}`;
const KEY_TTL_ROTATED = `key-${uniqueName()}`;
const KEY_ROTATED = `key-${uniqueName()}`;

describe("platform", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("answers /healthz and /readyz", async () => {
    const health = await ctx.app.inject({ method: "GET", url: "/healthz" });
    assert.deepEqual([health.statusCode, health.json()], [200, { status: "ok" }]);
    const ready = await ctx.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().status, "ready");
  });

  it("serves OpenAPI 3.1 of every tenant route with its tenant parameter, and the docs page", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(res.statusCode, 200);
    const spec = res.json();
    assert.equal(spec.openapi, "3.1.0");
    for (const path of [
      "/{tenant}/v4.0/health/network/create",
      "/{tenant}/v4.0/health/network/update/{id}",
      "/{tenant}/v4.0/health/network/find-all",
      "/{tenant}/v4.0/health/medical-provider/create",
      "/{tenant}/v4.0/health/medical-provider/{cchi_no}",
      "/{tenant}/v4.0/health/member/create",
      "/{tenant}/v4.0/health/member/{member_id}",
      "/{tenant}/v4.0/health/policy-holder/create",
      "/{tenant}/v4.0/health/policy-holder/update",
      "/{tenant}/v4.0/health/user/create",
      "/{tenant}/v4.0/health/code-set/{system}/import",
      "/{tenant}/v4.0/health/policy/create",
      "/{tenant}/v4.0/health/policy/policy",
      "/{tenant}/v4.0/health/policy/patient-policy",
      "/{tenant}/v4.0/health/policy/patient/consumption/get",
      "/{tenant}/v4.0/health/policy/bulk-patient-to-policy",
      "/{tenant}/v4.0/health/policy/async-bulk-patient-to-policy",
      "/{tenant}/v4.0/health/policy/bulk-job/{job_id}",
      "/{tenant}/v4.0/health/policy/template/category",
      "/{tenant}/v4.0/health/policy/template/benefit",
      "/{tenant}/v4.0/health/policy/template/sub-benefit",
      "/{tenant}/v4.0/health/price-list/create",
      "/{tenant}/v4.0/health/price-list/items/create",
      "/{tenant}/v4.0/health/price-list/item/update/{price_item_erp_id}",
      "/{tenant}/v4.0/health/health-declarations/create",
    ]) {
      assert.ok(spec.paths[path], `${path} is documented`);
    }
    const create = spec.paths["/{tenant}/v4.0/health/network/create"].post;
    assert.ok(
      create.parameters.some((p: { name: string; in: string }) => p.name === "tenant" && p.in === "path"),
    );
    assert.ok(create.requestBody.content["application/json"].schema.properties.name);
    const docs = await ctx.app.inject({ method: "GET", url: "/docs" });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.headers["content-type"] as string, /text\/html/);
  });

  it("keeps a caller's X-Request-ID, makes one otherwise, and records it in the audit log", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: `/${ctx.tenant.name}/v4.0/health/network/create`,
      headers: { "access-key": ctx.tenant.apiKey, "x-request-id": "erp-trace-42" },
      payload: { name: "Traced" },
    });
    assert.equal(res.headers["x-request-id"], "erp-trace-42");
    const rows = await ctx.db.query<{ request_id: string; actor: string; outcome: string }>(
      "SELECT request_id, actor, outcome FROM audit_log WHERE tenant_id = $1 AND entity_key = $2",
      [ctx.tenant.id, String(res.json().internal_id)],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.request_id, "erp-trace-42");
    assert.match(rows[0]?.actor ?? "", /^api-key:\d+$/);
    const generated = await ctx.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "bad id!" },
    });
    assert.match(generated.headers["x-request-id"] as string, /^[0-9a-f-]{36}$/);
  });

  it("answers an unknown route 404 in the standard shape", async () => {
    const res = await ctx.app.inject({ method: "GET", url: `/${ctx.tenant.name}/v4.0/health/nothing-here` });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().ErrorCode, "E_ROUTE_NOT_FOUND_404");
  });

  it("keeps the audit log append-only", async () => {
    await assert.rejects(ctx.db.query("UPDATE audit_log SET outcome = 'forged'"), /append-only/);
    await assert.rejects(ctx.db.query("DELETE FROM audit_log"), /append-only/);
  });

  it("applies migrations once and records them", async () => {
    assert.deepEqual(await migrate(ctx.db), []);
    const versions = await ctx.db.query<{ version: number }>(
      "SELECT version FROM schema_migrations ORDER BY version",
    );
    const files = await loadMigrations();
    assert.ok(files.length >= 4);
    assert.deepEqual(
      versions.map((v) => v.version),
      files.map((migration) => migration.version),
    );
  });
});

describe("failures", () => {
  it("answers 500 without internals and readiness 503 when the database is gone", async () => {
    const db = await openTestDb();
    const app = await buildApp(testConfig(), db, idleJobQueue(db));
    const bootstrap = await ensureBootstrapTenant(db, {
      tenant: uniqueName("boom"),
      mode: "standard",
      apiKey: KEY_500,
      clientId: undefined,
      clientSecret: undefined,
    });
    await db.close();
    const res = await app.inject({
      method: "GET",
      url: `/${bootstrap.tenant.name}/v4.0/health/network/find-all`,
      headers: { "access-key": KEY_500 },
    });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), {
      ErrorCode: "E_INTERNAL_500",
      message: "Internal server error",
      details: [],
    });
    assert.equal((await app.inject({ method: "GET", url: "/readyz" })).statusCode, 503);
    await app.close();
  });

  it("rate-limits per access-key with 429 and Retry-After", async () => {
    const ctx = await startTestApp({ MIZAN_RATE_LIMIT: "3" });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push(await ctx.tenant.call("GET", "/network/find-all"));
      assert.deepEqual(
        statuses.map((r) => r.statusCode),
        [200, 200, 200, 429],
      );
      assert.ok(Number(statuses[3]?.headers["retry-after"]) >= 1);
      const other = await ctx.newTenant();
      assert.equal((await other.call("GET", "/network/find-all")).statusCode, 200);
    } finally {
      await ctx.close();
    }
  });
});

describe("access-key memory", () => {
  it("remembers a checked key for its TTL only, and never an unknown key", async () => {
    const db = await openTestDb();
    try {
      const name = uniqueName("ttl");
      const settings = {
        tenant: name,
        mode: "standard" as const,
        apiKey: KEY_TTL,
        clientId: undefined,
        clientSecret: undefined,
      };
      await ensureBootstrapTenant(db, settings);
      let clock = 0;
      const authenticate = createApiKeyAuthenticator(db, 1000, () => clock);
      assert.equal((await authenticate(KEY_TTL))?.tenant.name, name);
      assert.equal(await authenticate("unknown-key-0123456789"), undefined);
      await ensureBootstrapTenant(db, { ...settings, apiKey: KEY_TTL_ROTATED });
      clock = 999;
      assert.equal((await authenticate(KEY_TTL))?.tenant.name, name, "still trusted within the TTL");
      clock = 1000;
      assert.equal(await authenticate(KEY_TTL), undefined, "rechecked once the TTL has passed");
      assert.equal((await authenticate(KEY_TTL_ROTATED))?.tenant.name, name);
    } finally {
      await db.close();
    }
  });
});

describe("bootstrap tenant", () => {
  it("is created with generated credentials once, then kept; MIZAN_API_KEY rotates the key", async () => {
    const db = await openTestDb();
    const app = await buildApp(testConfig(), db, idleJobQueue(db));
    try {
      const name = uniqueName("boot");
      const settings = {
        tenant: name,
        mode: "standard" as const,
        apiKey: undefined,
        clientId: undefined,
        clientSecret: undefined,
      };
      const first = await ensureBootstrapTenant(db, settings);
      assert.equal(first.created, true);
      assert.match(first.generated.apiKey ?? "", /^mzk_/);
      assert.match(first.generated.clientId ?? "", /^mzc_/);
      const second = await ensureBootstrapTenant(db, settings);
      assert.deepEqual([second.created, second.generated], [false, {}]);

      const stored = await db.query<{ key_hash: string }>(
        "SELECT key_hash FROM tenant_api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE t.name = $1",
        [name],
      );
      assert.notEqual(stored[0]?.key_hash, first.generated.apiKey, "keys are stored hashed");

      const call = (key: string) =>
        app.inject({
          method: "GET",
          url: `/${name}/v4.0/health/network/find-all`,
          headers: { "access-key": key },
        });
      assert.equal((await call(first.generated.apiKey as string)).statusCode, 200);

      const rotated = await ensureBootstrapTenant(db, {
        ...settings,
        apiKey: KEY_ROTATED,
        mode: "lightweight",
      });
      assert.equal(rotated.tenant.mode, "lightweight");
      // MIZAN_API_KEY is applied at start, so a restarted process is what sees it
      const restarted = await buildApp(testConfig(), db, idleJobQueue(db));
      const callRestarted = (key: string) =>
        restarted.inject({
          method: "GET",
          url: `/${name}/v4.0/health/network/find-all`,
          headers: { "access-key": key },
        });
      assert.equal((await callRestarted(first.generated.apiKey as string)).statusCode, 401);
      assert.equal((await callRestarted(KEY_ROTATED)).statusCode, 200);
      await restarted.close();
    } finally {
      await app.close();
      await db.close();
    }
  });
});
