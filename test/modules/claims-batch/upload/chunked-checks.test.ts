import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setImmediate as tick } from "node:timers/promises";
import { ChunkedChecks } from "../../../../src/modules/claims-batch/upload/chunks.js";
import type { CheckedChunk, ClaimChunk } from "../../../../src/modules/claims-batch/upload/claim-chunk.js";
import { CHUNK_BYTES } from "../../../../src/modules/claims-batch/upload/claim-chunk.js";

/** a check thread held by the test: each chunk's answer (its first claim's index as `items`) given at will */
function heldChecks(threads: number) {
  const held: { chunk: ClaimChunk; answer: () => void }[] = [];
  const absorbed: number[] = [];
  const checks = new ChunkedChecks(
    (chunk) =>
      new Promise<CheckedChunk>((resolve) =>
        held.push({
          chunk,
          answer: () =>
            resolve({
              claims: chunk.ends.length,
              items: chunk.firstIndex,
              problems: [],
              problemCount: 0,
              part: undefined,
            }),
        }),
      ),
    (checked) => absorbed.push(checked.items),
    threads,
  );
  return { checks, held, absorbed };
}

/** more than half a chunk: every claim fills a chunk of its own, sent to be checked as the next one comes */
const claim = Buffer.alloc(CHUNK_BYTES / 2 + 1, 0x20);

async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await tick();
  return done;
}

describe("an upload's chunks handed to check threads", () => {
  it("gives the threads one chunk beyond their count, then waits for the oldest answer", async () => {
    const { checks, held, absorbed } = heldChecks(2);
    for (let index = 0; index < 3; index += 1) checks.add(claim, index);
    assert.equal(held.length, 2);
    assert.equal(await settled(checks.caughtUp()), true, "two chunks out of three allowed: no wait");
    checks.add(claim, 3);
    assert.equal(held.length, 3);
    const waiting = checks.caughtUp();
    assert.equal(await settled(waiting), false, "three chunks with two threads: the upload waits");
    held[1]?.answer();
    assert.equal(await settled(waiting), false, "a later chunk's answer does not release it");
    held[0]?.answer();
    await waiting;
    assert.deepEqual(absorbed, [0], "the oldest answer is taken, and only it");
  });

  it("gives one thread two chunks, and takes every answer in the claims' order at the end", async () => {
    const { checks, held, absorbed } = heldChecks(1);
    for (let index = 0; index < 3; index += 1) checks.add(claim, index);
    assert.equal(held.length, 2);
    assert.equal(await settled(checks.caughtUp()), false, "two chunks for one thread: the upload waits");
    for (const { answer } of [...held].reverse()) answer();
    await checks.finish();
    // the last chunk is checked on the upload's own thread: a run of spaces is no claim, and counts no item
    assert.deepEqual(absorbed, [0, 1, 0]);
  });
});
