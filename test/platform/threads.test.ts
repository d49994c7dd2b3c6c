import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { startThreadBeside } from "../../src/platform/threads.js";

const BUNDLES = fileURLToPath(new URL("../../node_modules/.cache/mizan-threads/", import.meta.url));
const CHECKER = new URL("../../src/modules/claims-batch/upload/chunk-checker.ts", import.meta.url).href;

/** the answer of an upload's check thread to one chunk of one claim, `{}` */
async function checkEmptyClaim(thread: Worker): Promise<{ checked: { problemCount: number } }> {
  try {
    return await new Promise((resolve, reject) => {
      thread.once("message", resolve);
      thread.once("error", reject);
      thread.postMessage({ id: 1, chunk: { firstIndex: 0, bytes: Buffer.from("{}"), ends: [2] } });
    });
  } finally {
    await thread.terminate();
  }
}

/** the check thread's bundles and when each was written */
const checkThreadBundles = () =>
  new Map(
    readdirSync(BUNDLES)
      .filter((name) => /^check-thread-[0-9a-f]{16}\.mjs$/.test(name))
      .map((name) => [name, statSync(`${BUNDLES}${name}`).mtimeMs]),
  );

describe("a thread started from the sources", () => {
  it("runs its module bundled into one file, bundled once a process and started again from it", async () => {
    const first = await checkEmptyClaim(startThreadBeside(CHECKER, "check-thread", undefined));
    assert.ok(first.checked.problemCount > 0, "the claim {} lacks every required field");
    const written = checkThreadBundles();
    assert.equal(written.size >= 1, true, "the check thread's bundle is kept");

    const again = await checkEmptyClaim(startThreadBeside(CHECKER, "check-thread", undefined));
    assert.deepEqual(again, first);
    assert.deepEqual(checkThreadBundles(), written, "the second start wrote nothing");
  });
});
