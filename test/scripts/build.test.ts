import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { gunzipSync } from "node:zlib";
import { analyzeBatch } from "../../src/engine/fwa/analyze.js";
import { decodeColumnPart } from "../../src/engine/fwa/columns/part.js";
import { resultSourceOf } from "../../src/engine/fwa/result-bytes.js";
import { claimResult } from "../../src/engine/fwa/results.js";
import { claim, item, viewOf } from "../engine/fwa/fixtures.js";
import { batchClaim } from "../modules/claims-batch/fixtures.js";

/** scripts/build.mjs in a copy of the project's sources (node_modules shared), so the checkout is left alone */
describe("the build (npm run build, prepare)", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mizan-build-"));
    for (const path of ["src", "scripts", "tsconfig.json", "package.json", "package-lock.json"])
      cpSync(path, join(dir, path), { recursive: true });
    symlinkSync(resolve("node_modules"), join(dir, "node_modules"), "dir");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const build = () => {
    const run = spawnSync("node", ["scripts/build.mjs"], { cwd: dir, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  };

  it("builds beside the build in use and swaps, keeping what a running server reads; an up-to-date build does nothing", () => {
    assert.match(build(), /dist -> \.build\/[0-9a-f]{16}/);
    const first = realpathSync(join(dir, "dist"));
    assert.ok(existsSync(join(first, "cli.js")));
    assert.ok(existsSync(join(first, "platform/db/migrations/0001_foundation.sql")));
    assert.ok(existsSync(join(first, "modules/console/assets/console.js")));
    assert.match(build(), /dist is up to date/);
    assert.equal(realpathSync(join(dir, "dist")), first);

    appendFileSync(join(dir, "src/config.ts"), "\n// a change\n");
    assert.match(build(), /dist -> /);
    const second = realpathSync(join(dir, "dist"));
    assert.notEqual(second, first);
    // a server started before the change still finds every file it reads
    assert.ok(existsSync(join(first, "cli.js")));
    assert.ok(existsSync(join(first, "platform/db/migrations/0001_foundation.sql")));
    assert.match(readlinkSync(join(dir, "dist")), /^\.build\//);
  });

  it("bundles the threads started per upload, per batch's results and per fit into files of their own, which run as the product starts them", async () => {
    build();
    const dist = realpathSync(join(dir, "dist"));
    for (const thread of [
      "modules/claims-batch/upload/check-thread.js",
      "modules/claims-batch/results-thread.js",
      "modules/fwa-learning/fit-thread.js",
    ]) {
      const source = readFileSync(join(dist, thread), "utf8");
      assert.doesNotMatch(source, /^import .* from "\.{1,2}\//m, `${thread} imports a compiled module`);
    }
    const claims = [batchClaim(1), batchClaim(2, {}, 3)].map((claim) => Buffer.from(JSON.stringify(claim)));
    let end = 0;
    const ends = claims.map((claim) => (end += claim.length));
    const chunk = { firstIndex: 0, bytes: Buffer.concat(claims), ends };
    const answer = await firstAnswer<{
      id: number;
      checked: { claims: number; items: number; part: Uint8Array };
    }>(new Worker(join(dist, "modules/claims-batch/upload/check-thread.js")), { id: 7, chunk });
    assert.equal(answer.id, 7);
    assert.deepEqual([answer.checked.claims, answer.checked.items], [2, 5]);
    assert.equal(decodeColumnPart(answer.checked.part).itemCount, 5);
    const view = viewOf([claim({ claim_items: [item(), item({ service_code: "99214" })] })]);
    const decisions = analyzeBatch(view, [], { flagThreshold: 0.5 });
    const source = resultSourceOf(view, decisions, { batchId: "B", analyzedAt: "2026-11-27T00:00:00.000Z" });
    const page = await firstAnswer<{
      page: { view: string; page: number; claims: number; items: number };
      data: Uint8Array;
    }>(new Worker(join(dist, "modules/claims-batch/results-thread.js")), {
      start: { source, pageClaims: 1_000, step: 1_000, window: 4 },
    });
    assert.deepEqual(page.page, { view: "all", page: 1, claims: 1, items: 2 });
    assert.equal(
      gunzipSync(page.data).toString("utf8"),
      JSON.stringify([
        claimResult(view, decisions, 0, { batchId: "B", analyzedAt: "2026-11-27T00:00:00.000Z" }),
      ]),
    );
    const fitted = await firstAnswer<{ model: { kind: string } }>(
      new Worker(join(dist, "modules/fwa-learning/fit-thread.js"), { workerData: { examples: [] } }),
    );
    assert.equal(fitted.model.kind, "logistic");
  });
});

/** the first message `thread` answers (after `message`, when given); the thread ends then */
async function firstAnswer<T>(thread: Worker, message?: unknown): Promise<T> {
  try {
    return await new Promise<T>((resolve, reject) => {
      thread.once("message", resolve);
      thread.once("error", reject);
      if (message !== undefined) thread.postMessage(message);
    });
  } finally {
    await thread.terminate();
  }
}
