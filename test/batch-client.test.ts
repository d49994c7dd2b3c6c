import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { TEST_DATABASE_URL, uniqueName } from "./helpers.js";
import { batchBody, batchClaim } from "./modules/claims-batch/fixtures.js";
import { freePort, type Served, serve, spawnMizan } from "./processes.js";

/** runs the CLI to its end, collecting what it prints */
async function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const [command, ...rest] = args;
  const run = spawnMizan(command as string, env, rest);
  return { code: await run.exited, output: run.output() };
}

describe("mizan batch submit", () => {
  const dir = mkdtempSync(join(tmpdir(), "mizan-batch-cli-"));
  const clientId = `mzc_${uniqueName("cli").replace(/-/g, "")}`;
  const secret = "cli-client-secret-0123456789";
  let served: Served;
  let env: Record<string, string>;
  before(async () => {
    const port = await freePort();
    env = {
      MIZAN_DATA_DIR: join(dir, "data"),
      MIZAN_TENANT: uniqueName("cli"),
      MIZAN_CLIENT_ID: clientId,
      MIZAN_CLIENT_SECRET: secret,
      MIZAN_PUBLIC_URL: `http://127.0.0.1:${port}`,
      MIZAN_TOKEN_CACHE: join(dir, "token.json"),
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    };
    served = await serve(env, port);
  });
  after(async () => {
    served.child.kill("SIGTERM");
    await served.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it("uploads a gzip batch and follows it to completion, in plain lines when not on a terminal", async () => {
    const file = join(dir, "batch.json.gz");
    writeFileSync(
      file,
      gzipSync(JSON.stringify(batchBody(Array.from({ length: 40 }, (_, n) => batchClaim(n))))),
    );
    const { code, output } = await run(["batch", "submit", file, "--wait"], env);
    assert.equal(code, 0, output);
    assert.match(output, /^accepted: batch [0-9a-f-]{36} \(REF-[^)]+\), 40 claims, 80 items, \d+ bytes$/m);
    assert.match(output, /^completed: \d+ approved, \d+ flagged, \d+ rejected claims, \d+ FWA cases$/m);
    assert.match(output, /^results: http:\/\/127\.0\.0\.1:\d+\/v1\/claims\/batch\/[0-9a-f-]{36}\/results$/m);
    assert.doesNotMatch(output, /\r/, "no progress bar off a terminal");
    const cached = JSON.parse(readFileSync(env.MIZAN_TOKEN_CACHE as string, "utf8"));
    assert.ok(cached.expires_at - Date.now() > 3_000_000, "the token is kept with its expiry");
  });

  it("renews a token the service refuses, and retries once", async () => {
    writeFileSync(
      env.MIZAN_TOKEN_CACHE as string,
      JSON.stringify({ access_token: "revoked", expires_at: Date.now() + 3_600_000 }),
    );
    const file = join(dir, "batch.json");
    writeFileSync(file, JSON.stringify(batchBody([batchClaim(1)])));
    const { code, output } = await run(["batch", "submit", file], env);
    assert.equal(code, 0, output);
    assert.match(output, /^accepted: batch/m);
    assert.notEqual(
      JSON.parse(readFileSync(env.MIZAN_TOKEN_CACHE as string, "utf8")).access_token,
      "revoked",
    );
  });

  it("shows why a batch is refused, and exits 1", async () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify(batchBody([batchClaim(1, { claim_date: "03/10/2026" })])));
    const { code, output } = await run(["batch", "submit", file], env);
    assert.equal(code, 1, output);
    assert.match(output, /^refused: The batch has 1 validation error$/m);
    assert.match(output, /^ {2}claims\[0\]\.claim_date must be a date of the form YYYY-MM-DD$/m);
    const wrong = await run(["batch", "submit", file], {
      ...env,
      MIZAN_CLIENT_SECRET: "not-the-secret-0123456789",
      MIZAN_TOKEN_CACHE: join(dir, "other.json"),
    });
    assert.equal(wrong.code, 1);
    assert.match(wrong.output, /the token service refused the client/);
  });
});
