import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BatchSyntaxError,
  ClaimTooLarge,
  createClaimSplitter,
} from "../../../../src/modules/claims-batch/upload/splitter.js";

/** splits `text` fed in chunks of `size` bytes; returns the claims as parsed and the outcome */
function split(text: string, size: number) {
  const claims: unknown[] = [];
  const splitter = createClaimSplitter((bytes, index) => {
    assert.equal(index, claims.length);
    claims.push(JSON.parse(bytes.toString("utf8")));
  });
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length; at += size) splitter.write(bytes.subarray(at, at + size));
  return { parsed: claims, ...splitter.end() };
}

const tricky = {
  start_date: "2026-01-01",
  description: 'quotes " and \\ backslashes \\" {not} [an] , array',
  batch_reference_id: "REF-1",
  count: 12.5,
  flag: true,
  nothing: null,
  nested: { a: [1, { b: "}" }] },
  claims: [
    { claim_id: "C1", note: "ends with a backslash \\", claim_items: [{ n: 1 }, { n: 2 }] },
    { claim_id: 'C"2"', claim_items: [], weird: '\\\\\\"' },
    { claim_id: "C3", unicode: "صيدلية 💊", deep: [[[{ x: "]]]" }]]] },
  ],
  end_date: "2026-01-31",
};

describe("claim splitter", () => {
  it("cuts every claim out and parses the root fields, whatever the chunk size", () => {
    const text = JSON.stringify(tricky, null, 1);
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      const { parsed, root, claimsPresent, claims: count } = split(text, size);
      assert.deepEqual(parsed, tricky.claims, `chunks of ${size}`);
      assert.equal(count, 3);
      assert.ok(claimsPresent);
      const { claims: _claims, ...rest } = tricky;
      assert.deepEqual(root, rest, `chunks of ${size}`);
    }
  });

  it("handles an empty claims array, and a batch without one", () => {
    const empty = split('{"claims": [ ] }', 3);
    assert.deepEqual([empty.parsed, empty.claims, empty.root, empty.claimsPresent], [[], 0, {}, true]);
    const none = split('{"a": 1}', 2);
    assert.equal(none.claimsPresent, false);
  });

  it("refuses malformed JSON with the byte offset", () => {
    for (const [text, message] of [
      ["[1, 2]", /must be a JSON object/],
      ['{"claims": {"a": 1}}', /claims must be an array/],
      ['{"claims": [1, 2]}', /claims\[0\] must be an object/],
      ['{"claims": [{"a": 1},]}', /claims\[1\] must be an object/],
      ['{"claims": [{"a": 1} {"b": 2}]}', /',' or '\]' was expected/],
      ['{"a": 1', /ends before its JSON is complete/],
      ['{"a": 1} x', /unexpected content after the batch/],
      [" \n", /holds no JSON/],
      [`{"a": "${"x".repeat(70_000)}"}`, /a field of the batch is too long/],
      [
        `{${Array.from({ length: 5 }, (_, n) => `"f${n}": "${"x".repeat(60_000)}"`).join(",")}}`,
        /other than claims are too long/,
      ],
      ['{"a": tru}', /not valid JSON/],
      ['{"a" 1}', /':' was expected/],
    ] as const) {
      assert.throws(
        () => split(text, 4),
        (error: unknown) => {
          assert.ok(error instanceof BatchSyntaxError, String(error));
          assert.match(error.message, message);
          assert.match(error.message, /at byte \d+/);
          return true;
        },
      );
    }
  });

  it("refuses a claim the moment its bytes pass the bound, never keeping more, naming its index and claim_id", () => {
    const claim = JSON.stringify({ claim_id: "C-1", claim_items: [{ n: 1 }] });
    const text = `{"claims": [${claim}, ${claim}]}`;
    for (const size of [1, 5, 64]) {
      const exact = createClaimSplitter(() => {}, { maxClaimBytes: claim.length });
      for (let at = 0; at < text.length; at += size) exact.write(Buffer.from(text.slice(at, at + size)));
      assert.equal(exact.end().claims, 2, "a claim of exactly the bound passes");
    }
    const tooLong = createClaimSplitter(() => {}, { maxClaimBytes: claim.length - 1 });
    assert.throws(
      () => tooLong.write(Buffer.from(text)),
      (error: unknown) =>
        error instanceof ClaimTooLarge &&
        error.index === 0 &&
        error.claimId === "C-1" &&
        error.limit === claim.length - 1,
    );
    // 100 MiB of one string in 64 KiB chunks: refused within one chunk past 1 MiB
    const chunk = Buffer.alloc(64 * 1024, "x");
    const bounded = createClaimSplitter(() => assert.fail("no claim is whole"), { maxClaimBytes: 1024 ** 2 });
    bounded.write(Buffer.from('{"claims": [{"claim_id": "C-BIG", "note": "'));
    let fed = 0;
    assert.throws(() => {
      for (; fed < 100 * 1024 ** 2; fed += chunk.length) bounded.write(chunk);
    }, ClaimTooLarge);
    assert.ok(fed <= 1024 ** 2, `${fed} bytes were fed before the refusal`);
  });
});
