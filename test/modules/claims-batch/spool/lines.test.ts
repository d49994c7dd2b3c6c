import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claimsOfLines, wholeLinesOf } from "../../../../src/modules/claims-batch/spool/lines.js";

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** the claims of a stream read as runs of whole lines */
const collect = async (chunks: AsyncIterable<Buffer>) => {
  const out: unknown[] = [];
  for await (const lines of wholeLinesOf(chunks)) out.push(...claimsOfLines(lines));
  return out;
};

describe("spooled lines", () => {
  const claims = [{ claim_id: "C-1", note: "Ḥā’il" }, { claim_id: "C-2" }, { claim_id: "C-3", x: [1, 2] }];
  const bytes = Buffer.from(`${claims.map((c) => JSON.stringify(c)).join("\n")}\n`);

  it("reads every claim whatever the chunks, a multi-byte character split between two", async () => {
    for (const size of [1, 2, 3, 7, 16, bytes.length, bytes.length + 5])
      assert.deepEqual(await collect(chunksOf(bytes, size)), claims, `chunks of ${size}`);
  });

  it("skips empty lines and reads a last line without its line end", () => {
    assert.deepEqual([...claimsOfLines(Buffer.from('\n{"a":1}\n\n{"b":2}'))], [{ a: 1 }, { b: 2 }]);
  });

  it("throws on a line that is not JSON (a corrupt spool fails the attempt)", async () => {
    await assert.rejects(collect(chunksOf(Buffer.from('{"a":1}\n{"b"\n'), 4)), SyntaxError);
  });
});
