import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chunkChecker } from "../../../../src/modules/claims-batch/upload/chunk-checker.js";
import type { ClaimChunk } from "../../../../src/modules/claims-batch/upload/claim-chunk.js";
import { batchClaim } from "../fixtures.js";

/** claims `from`..`from + count - 1` as a chunk, their JSON one after another */
function chunkOf(from: number, count: number, gather: (texts: Buffer[]) => Buffer): ClaimChunk {
  const texts = Array.from({ length: count }, (_, n) => Buffer.from(JSON.stringify(batchClaim(from + n))));
  const ends: number[] = [];
  for (const text of texts) ends.push((ends.at(-1) ?? 0) + text.length);
  return { firstIndex: from, bytes: gather(texts), ends };
}

describe("an upload chunk handed to a check thread", () => {
  const check = chunkChecker(1);

  it("moves a full chunk's memory to the thread instead of copying it, and is answered as before", async () => {
    const chunk = chunkOf(0, 40, (texts) => Buffer.concat(texts));
    assert.ok(chunk.bytes.byteLength > 4096, "a chunk beyond the small-buffer pool");
    const checked = await check(chunk);
    assert.equal(chunk.bytes.byteLength, 0, "the chunk's memory went to the thread");
    assert.deepEqual([checked.claims, checked.items, checked.problemCount], [40, 80, 0]);
    assert.ok(checked.part !== undefined && checked.part.byteLength > 0, "its columns built");
  });

  it("copies a chunk that shares the small-buffer pool, leaving its neighbours whole", async () => {
    const chunk = chunkOf(40, 1, (texts) => Buffer.from((texts[0] as Buffer).toString()));
    const neighbour = Buffer.from("a neighbour in the pool");
    assert.ok(chunk.bytes.buffer.byteLength > chunk.bytes.byteLength, "the chunk shares its memory");
    const before = Buffer.from(chunk.bytes).toString();
    const checked = await check(chunk);
    assert.equal(Buffer.from(chunk.bytes).toString(), before, "the chunk's bytes are still here");
    assert.equal(neighbour.toString(), "a neighbour in the pool");
    assert.deepEqual([checked.claims, checked.items, checked.problemCount], [1, 2, 0]);
  });
});
