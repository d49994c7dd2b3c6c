import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TEST_DATABASE_URL, TEST_ENV, uniqueName } from "./helpers.js";
import { CLI, freePort, serve } from "./processes.js";

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(CLI[0] as string, [...CLI.slice(1), ...args], {
    env: { ...process.env, ...TEST_ENV, ...env },
    encoding: "utf8",
  });
}

describe("mizan serve and the CLI, as processes", () => {
  let dataDir: string;
  let env: Record<string, string>;
  const tenant = uniqueName("srv");
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), "mizan-test-"));
    env = {
      MIZAN_DATA_DIR: dataDir,
      MIZAN_TENANT: tenant,
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    };
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("serves the bootstrap tenant, drains an in-flight request on SIGTERM, and keeps its data", async () => {
    const port = await freePort();
    const first = await serve(env, port);
    const apiKey = /access-key:\s+(\S+)/.exec(first.output())?.[1];
    assert.ok(apiKey, `the generated access-key is printed once:\n${first.output()}`);
    assert.match(first.output(), /client_secret:\s+mzs_/);
    const base = `http://127.0.0.1:${port}/${tenant}/v4.0/health`;
    const created = await fetch(`${base}/network/create`, {
      method: "POST",
      headers: { "access-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ name: "Persisted" }),
    });
    assert.equal(created.status, 201);

    // a request whose body is still arriving when SIGTERM comes must still be answered
    const body = `code\tdescription\n${Array.from({ length: 500 }, (_, i) => `A${String(i).padStart(4, "0")}\tCode ${i}`).join("\n")}\n`;
    const half = Math.floor(body.length / 2);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${base}/code-set/icd10/import`,
        {
          method: "POST",
          headers: {
            "access-key": apiKey,
            "content-type": "text/tab-separated-values",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, half));
      setTimeout(() => {
        first.child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(half)), 400);
      }, 300);
    });
    const drained = await answer;
    assert.equal(drained.status, 200, drained.body);
    assert.equal(JSON.parse(drained.body).imported, 500);
    assert.equal(await first.exited, 0, first.output());

    const second = await serve(env, port);
    try {
      assert.doesNotMatch(second.output(), /access-key:/, "credentials are printed only when generated");
      const list = await fetch(`${base}/network/find-all?name=Persisted`, {
        headers: { "access-key": apiKey },
      });
      assert.equal(((await list.json()) as { total_count: number }).total_count, 1);
      const code = await fetch(`${base}/code-set/icd10/A0499`, { headers: { "access-key": apiKey } });
      assert.equal(code.status, 200);
    } finally {
      second.child.kill("SIGTERM");
      assert.equal(await second.exited, 0);
    }
  });

  it("creates tenants, imports codes and migrates from the command line", () => {
    const name = uniqueName("cli");
    const created = cli(["tenant", "create", name, "--mode", "lightweight"], env);
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, new RegExp(`tenant:\\s+${name} \\(lightweight\\)`));
    assert.match(created.stdout, /access-key:\s+mzk_/);
    assert.equal(cli(["tenant", "create", name], env).status, 1, "a second create of the same name fails");

    const file = join(dataDir, "codes.csv");
    writeFileSync(file, 'code,description\nJ45.909,Asthma\nE11.9,"Diabetes, type 2"\n');
    const imported = cli(["codes", "import", "--tenant", name, "--system", "icd10", file], env);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /imported 2 icd10 codes/);

    const bad = cli(["codes", "import", "--tenant", "no-such-tenant", "--system", "icd10", file], env);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /tenant no-such-tenant does not exist/);

    const migrated = cli(["migrate"], env);
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.match(migrated.stdout, /migrations up to date|applied migrations/);

    const usage = cli(["frobnicate"], env);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /unknown command frobnicate/);
  });

  it("refuses to start on invalid configuration, naming the variable", () => {
    const res = cli(["serve"], { ...env, PORT: "99999", MIZAN_MODE: "turbo" });
    assert.equal(res.status, 2);
    assert.match(res.stderr, /PORT must be an integer from 1 to 65535/);
    assert.match(res.stderr, /MIZAN_MODE must be one of standard, lightweight/);
  });
});
