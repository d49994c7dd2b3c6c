import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError } from "../../src/config.js";
import { OUTLIER_PROVIDER } from "../../src/demo/batch.js";
import { DEMO_TRANSACTION_IDS } from "../../src/demo/requests.js";
import { type DemoReport, describeDemo, ensureDemoTenant, seedDemo } from "../../src/demo/seed.js";
import { findTenant } from "../../src/modules/tenants/service.js";
import type { Db } from "../../src/platform/db/db.js";
import {
  silentLog,
  startTestApp,
  TEST_DATABASE_URL,
  type TenantClient,
  type TestContext,
  testConfig,
  uniqueName,
} from "../helpers.js";
import { claimsCall, tokenFor } from "../modules/claims-batch/fixtures.js";
import { freePort, serve, spawnMizan } from "../processes.js";

interface ItemView {
  decision: string;
  price: number;
  request_amount: number;
  approved_amount: number;
  price_rejected_amount: number;
  rejected_amount: number;
  reasons: { code: string; nphies_code: string | null; source: string; message: string }[];
}

/** the tables the demo writes, counted for one tenant (history and results through their parents) */
const TENANT_TABLES = [
  "networks",
  "network_providers",
  "medical_providers",
  "price_lists",
  "price_items",
  "policy_holders",
  "policies",
  "policy_categories",
  "policy_benefits",
  "policy_sub_benefits",
  "members",
  "patient_policies",
  "users",
  "prior_authorizations",
  "prior_authorization_items",
  "diagnosis_service_pairs",
  "events",
  "claims_batches",
  "fwa_provider_features",
  "audit_log",
];

async function rowCounts(db: Db, tenantId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const count = async (name: string, sql: string) => {
    const [row] = await db.query<{ n: number }>(sql, [tenantId]);
    counts[name] = row?.n ?? 0;
  };
  for (const table of TENANT_TABLES)
    await count(table, `SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`);
  await count(
    "prior_authorization_history",
    `SELECT count(*)::int AS n FROM prior_authorization_history h
     JOIN prior_authorizations p ON p.id = h.prior_authorization_id WHERE p.tenant_id = $1`,
  );
  await count(
    "claims_batch_results",
    `SELECT count(*)::int AS n FROM claims_batch_results r JOIN claims_batches b ON b.id = r.batch_id
     WHERE b.tenant_id = $1`,
  );
  return counts;
}

describe("the demo tenant", () => {
  let ctx: TestContext;
  let report: DemoReport;
  let tenant: TenantClient;
  const seed = (of: DemoReport["tenant"], credentials?: DemoReport["credentials"]) =>
    seedDemo(
      { db: ctx.db, jobs: ctx.jobs, batches: testConfig().batches, log: silentLog, waitForBatch: true },
      of,
      credentials,
    );

  before(async () => {
    ctx = await startTestApp();
    const created = await ensureDemoTenant(ctx.db, uniqueName("demo"));
    report = await seed(created.tenant, created.credentials);
    const credentials = report.credentials;
    assert.ok(credentials, "a new tenant's secrets are answered");
    tenant = {
      name: created.tenant.name,
      id: created.tenant.id,
      ...credentials,
      call: (method, path) =>
        ctx.app.inject({
          method,
          url: `/${created.tenant.name}/v4.0/health${path}`,
          headers: { "access-key": credentials.apiKey },
        }),
    };
  });
  after(() => ctx.close());

  const itemsOf = async (transactionId: string): Promise<ItemView[]> => {
    const res = await tenant.call("GET", `/approval-request/get-one/${transactionId}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().items;
  };
  const nphies = (item: ItemView) => item.reasons.map((reason) => reason.nphies_code);

  it("decides every DEMO-* request as its name says", async () => {
    assert.deepEqual([...DEMO_TRANSACTION_IDS].sort(), [
      "DEMO-APPROVED",
      "DEMO-HELD",
      "DEMO-PARTIAL-LIMIT",
      "DEMO-PARTIAL-PRICE",
      "DEMO-REJECTED-CLINICAL",
      "DEMO-REJECTED-ELIGIBILITY",
    ]);
    for (const item of await itemsOf("DEMO-APPROVED")) assert.equal(item.decision, "APPROVED");

    for (const item of await itemsOf("DEMO-PARTIAL-PRICE")) {
      assert.equal(item.decision, "PARTIALLY_APPROVED");
      assert.equal(item.approved_amount, item.price, "approved at the contract price");
      assert.ok(item.price_rejected_amount > 0);
      assert.equal(item.price_rejected_amount, item.request_amount - item.approved_amount);
      assert.deepEqual(nphies(item), ["NDC079"]);
    }

    const limited = (await itemsOf("DEMO-PARTIAL-LIMIT")).filter((i) => i.decision !== "APPROVED");
    assert.equal(limited.length, 1);
    assert.equal(limited[0]?.decision, "PARTIALLY_APPROVED");
    assert.deepEqual(nphies(limited[0] as ItemView), ["NDC017"]);
    assert.equal(limited[0]?.price_rejected_amount, 0, "cut by the limit, not the price");
    assert.ok((limited[0]?.rejected_amount ?? 0) > 0);

    for (const item of await itemsOf("DEMO-REJECTED-CLINICAL")) {
      assert.equal(item.decision, "REJECTED");
      assert.deepEqual(nphies(item), ["NDC053"]);
    }
    for (const item of await itemsOf("DEMO-REJECTED-ELIGIBILITY")) {
      assert.equal(item.decision, "REJECTED");
      assert.ok(
        item.reasons.every((reason) => reason.code.startsWith("MZ-ELIG-")),
        JSON.stringify(item),
      );
    }

    const held = (await itemsOf("DEMO-HELD")).find((item) => item.decision === "PENDING_REVIEW");
    assert.ok(held, "an item is held for the reviewer");
    const evidence = held.reasons.find((reason) => reason.source === "ai" && reason.code === "MZ-AI-01");
    assert.match(evidence?.message ?? "", /is 10\.0 x the median 90\.00 of 2\d approved items of LAB-HBA1C/);
  });

  it("gives the score its peers: twenty approved A1c tests of the tenant's history", async () => {
    for (let n = 1; n <= 20; n++) {
      const [item] = await itemsOf(`DEMO-HIST-${String(n).padStart(3, "0")}`);
      assert.equal(item?.decision, "APPROVED", `DEMO-HIST-${n}`);
    }
  });

  it("holds 300 members of both sexes with English and Arabic names on two policies and two networks", async () => {
    const [members] = await ctx.db.query<{ n: number; sexes: number; arabic: number; children: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT gender)::int AS sexes,
         count(*) FILTER (WHERE name ~ '[ء-ي]')::int AS arabic,
         count(*) FILTER (WHERE date_of_birth > '2008-01-01')::int AS children
       FROM members WHERE tenant_id = $1`,
      [tenant.id],
    );
    assert.equal(members?.n, 300);
    assert.equal(members?.sexes, 2);
    assert.equal(members?.arabic, 300);
    assert.ok((members?.children ?? 0) > 20, "families have children");
    const links = await ctx.db.query<{ policy_no: string; network: string; n: number }>(
      `SELECT p.policy_no, n.name AS network, count(*)::int AS n FROM patient_policies l
       JOIN policies p ON p.id = l.policy_id JOIN networks n ON n.id = l.network_id
       WHERE l.tenant_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [tenant.id],
    );
    assert.deepEqual(
      links.map((link) => `${link.policy_no} ${link.network}`),
      ["POL-2025-REDSEA SILVER", "POL-2026-ALNOOR GOLD", "POL-2026-ALNOOR SILVER"],
    );
    assert.equal(
      links.reduce((sum, link) => sum + link.n, 0),
      300,
    );
    const [cities] = await ctx.db.query<{ n: number }>(
      "SELECT count(DISTINCT city)::int AS n FROM medical_providers WHERE tenant_id = $1",
      [tenant.id],
    );
    assert.ok((cities?.n ?? 0) >= 5);
  });

  it("has completed its claims batch, with flagged claims and the outlier provider ranked first", async () => {
    assert.equal(report.batch.status, "completed");
    assert.ok((report.batch.summary?.flagged ?? 0) > 0, JSON.stringify(report.batch.summary));
    const token = await tokenFor(ctx.app, tenant);
    const ranking = await claimsCall(ctx.app, token, {
      method: "GET",
      url: `/v1/claims/batch/${report.batch.id}/providers?per_page=50`,
    });
    assert.equal(ranking.statusCode, 200, ranking.body);
    const providers = ranking.json().providers as { provider_id: string; risk_score: number }[];
    assert.equal(providers.length, 10);
    assert.equal(providers[0]?.provider_id, OUTLIER_PROVIDER);
    assert.ok((providers[0]?.risk_score ?? 0) > 2 * (providers[1]?.risk_score ?? 1), "it ranks clearly");
  });

  it("lets each reviewer sign in to the console with the printed password, and queues DEMO-HELD", async () => {
    assert.deepEqual(
      report.reviewers.map((reviewer) => reviewer.username),
      ["reviewer", "analyst"],
    );
    for (const { username, password } of report.reviewers) {
      assert.ok(password.length >= 12);
      const res = await ctx.app.inject({
        method: "POST",
        url: `/${tenant.name}/console/sign-in`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ username, password }).toString(),
      });
      assert.equal(res.statusCode, 303, res.body);
      const cookie = String(res.headers["set-cookie"]).split(";")[0] as string;
      const queue = await ctx.app.inject({
        method: "GET",
        url: `/${tenant.name}/console/`,
        headers: { cookie },
      });
      assert.match(queue.body, /data-transaction-id="DEMO-HELD"/);
    }
  });

  it("prints the tenant's secrets, the passwords and what to try next", () => {
    const text = describeDemo(report, "http://localhost:8080");
    assert.match(text, new RegExp(`access-key: +${tenant.apiKey}`));
    assert.match(text, new RegExp(`client_secret: +${tenant.clientSecret}`));
    for (const { username, password } of report.reviewers)
      assert.match(text, new RegExp(`reviewer ${username}, password ${password}`));
    assert.match(
      text,
      new RegExp(
        `curl -H 'access-key: ${tenant.apiKey}' http://localhost:8080/${tenant.name}/v4.0/health/approval-request/get-one/DEMO-HELD`,
      ),
    );
    assert.match(text, new RegExp(`http://localhost:8080/${tenant.name}/console/`));
    assert.match(text, /http:\/\/localhost:8080\/docs/);
  });

  it("refuses a lightweight tenant, and MIZAN_DEMO=1 beside MIZAN_MODE=lightweight", async () => {
    const light = await findTenant(ctx.db, (await ctx.newTenant("lightweight")).name);
    assert.ok(light);
    await assert.rejects(seed(light), /lightweight mode; the demo needs standard mode/);
    assert.throws(() => testConfig({ MIZAN_DEMO: "1", MIZAN_MODE: "lightweight" }), ConfigError);
    assert.equal(testConfig({ MIZAN_DEMO: "1" }).demo, true);
    assert.equal(testConfig().demo, false);
  });

  it("changes nothing when run again", async () => {
    const before = await rowCounts(ctx.db, tenant.id);
    assert.equal(before.members, 300);
    assert.equal(before.prior_authorizations, 26);
    const again = await seed(report.tenant);
    assert.deepEqual(await rowCounts(ctx.db, tenant.id), before);
    assert.equal(again.changed, false);
    assert.deepEqual(again.reviewers, []);
    assert.equal(again.batch.id, report.batch.id);
    const text = describeDemo(again, "http://localhost:8080");
    assert.match(text, /nothing changed/);
    assert.doesNotMatch(text, /mzk_|mzs_|password /);
  });
});

describe("mizan demo and MIZAN_DEMO=1, as processes", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-demo-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const database = {
    MIZAN_DATA_DIR: dataDir,
    ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
  };

  const demo = async (name: string) => {
    const run = spawnMizan("demo", database, ["--tenant", name]);
    assert.equal(await run.exited, 0, run.output());
    return run.output();
  };

  it("creates a tenant full of demo data, then finds it all there", async () => {
    const name = uniqueName("demo");
    const first = await demo(name);
    assert.match(first, /access-key: +mzk_/);
    assert.match(first, /reviewer reviewer, password \S{12,} \(shown once\)/);
    assert.match(first, /prior authorizations +26 created/);
    assert.match(first, /claims batch DEMO-BATCH-2026 \(\d+ claims\) is completed/);
    assert.match(first, new RegExp(`/${name}/v4.0/health/approval-request/get-one/DEMO-HELD`));
    const second = await demo(name);
    assert.match(second, /Everything was already there: nothing changed/);
    assert.doesNotMatch(second, /mzk_|mzs_|password /);
  });

  it("seeds the bootstrap tenant before serve answers", async () => {
    const port = await freePort();
    const name = uniqueName("demo");
    const served = await serve({ ...database, MIZAN_TENANT: name, MIZAN_DEMO: "1" }, port);
    try {
      const apiKey = /access-key:\s+(mzk_\S+)/.exec(served.output())?.[1];
      assert.ok(apiKey, served.output());
      assert.match(served.output(), new RegExp(`curl -H 'access-key: ${apiKey}'`));
      const res = await fetch(
        `http://127.0.0.1:${port}/${name}/v4.0/health/approval-request/get-one/DEMO-HELD`,
        { headers: { "access-key": apiKey } },
      );
      assert.equal(res.status, 200);
      const { items } = (await res.json()) as { items: ItemView[] };
      assert.ok(items.some((item) => item.decision === "PENDING_REVIEW"));
    } finally {
      served.child.kill("SIGTERM");
      await served.exited;
    }
  });
});
