import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { createColumnarBuilder } from "../../../../src/engine/fwa/columns/columnar.js";
import { decodeColumnPart, encodeColumnPart } from "../../../../src/engine/fwa/columns/part.js";
import type { ColumnarBatchView } from "../../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item, textsOf, viewOf } from "../fixtures.js";

const REAL_BATCHES = "../shared/data/fwa-real/batches";

/** the claims cut into parts of these sizes in turn, each part encoded, decoded and appended */
function viewOfParts(claims: BatchClaimInput[], sizes: number[]): ColumnarBatchView {
  const joined = createColumnarBuilder({ claims: 1, items: 1 });
  for (let from = 0, n = 0; from < claims.length; n++) {
    const size = sizes[n % sizes.length] as number;
    joined.addPart(decodeColumnPart(encodeColumnPart(viewOf(claims.slice(from, from + size)))));
    from += size;
  }
  return joined.finish();
}

/** a view as plain values, so that equal columns compare equal whatever their buffers */
const plain = (view: ColumnarBatchView) => ({
  ...Object.fromEntries(
    Object.entries(view).map(([name, value]) => [
      name,
      ArrayBuffer.isView(value) ? [...(value as Int32Array)] : value,
    ]),
  ),
  claimIds: textsOf(view.claimIds),
  erpItemIds: textsOf(view.erpItemIds),
});

const aligned = (offset: number) => (offset + 7) & ~7;

/** a part as the first layout wrote it ("MZC1": the ids as JSON in the header, no ids' columns) */
function firstLayoutOf(view: ColumnarBatchView): Uint8Array {
  const current = encodeColumnPart(view);
  const headerLength = new DataView(current.buffer, current.byteOffset).getUint32(4, true);
  const header = JSON.parse(Buffer.from(current.subarray(8, 8 + headerLength)).toString());
  const idColumns =
    aligned(4 * (view.claimCount + 1)) +
    aligned(4 * (view.erpItemIds.count + 1)) +
    aligned(view.claimIds.bytes.length) +
    aligned(view.erpItemIds.bytes.length);
  const columns = current.subarray(aligned(8 + headerLength), current.length - idColumns);
  const first = Buffer.from(
    JSON.stringify({
      claims: header.claims,
      items: header.items,
      secondaries: header.secondaries,
      strings: header.strings,
      claimIds: textsOf(view.claimIds),
      erpItemIds: textsOf(view.erpItemIds),
    }),
  );
  const bytes = new Uint8Array(aligned(8 + first.length) + columns.length);
  bytes.set(Buffer.from("MZC1"), 0);
  new DataView(bytes.buffer).setUint32(4, first.length, true);
  bytes.set(first, 8);
  bytes.set(columns, aligned(8 + first.length));
  return bytes;
}

/** claims that share members, providers, codes (spelled two ways) and ids across parts, some with erp ids */
const mixed = (count: number): BatchClaimInput[] =>
  Array.from({ length: count }, (_, n) =>
    claim({
      claim_id: `C-${n}`,
      member_id: `M-${n % 7}`,
      provider_id: n % 5 === 0 ? `M-${n % 7}` : `P-${n % 3}`,
      ph_id: `PH-${n % 2}`,
      primary_diagnosis_code: n % 2 === 0 ? "E11.9" : "e119",
      secondary_diagnosis_codes:
        n % 3 === 0 ? [] : [{ type: "secondary", code: n % 4 === 0 ? "I10" : "N39.0", name: "x" }],
      "pre-auth_status": n % 4 === 0 ? "APPROVED" : undefined,
      days_supply: n % 6 === 0 ? 30 : undefined,
      claim_items: Array.from({ length: (n % 4) + 1 }, (_, i) =>
        item({
          service_code: `S${(n + i) % 9}`,
          claimed_amount: 10.05 * (i + 1),
          erp_item_id: i === 1 ? `ERP-${n}` : undefined,
          admission_date: i === 2 ? "2026-03-08" : undefined,
        }),
      ),
    }),
  );

describe("fwa column parts", () => {
  it("decode what they encode, at any byte offset", () => {
    const view = viewOf(mixed(40));
    const bytes = encodeColumnPart(view);
    assert.deepEqual(plain(decodeColumnPart(bytes)), plain(view));
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    assert.deepEqual(plain(decodeColumnPart(shifted.subarray(3))), plain(view));
  });

  it("of the first layout (ids in the header) are still read, joined with parts of the current one", () => {
    const claims = mixed(60);
    const view = viewOf(claims.slice(0, 25));
    assert.deepEqual(plain(decodeColumnPart(firstLayoutOf(view))), plain(view));
    const joined = createColumnarBuilder({ claims: 1, items: 1 });
    joined.addPart(decodeColumnPart(firstLayoutOf(view)));
    joined.addPart(decodeColumnPart(encodeColumnPart(viewOf(claims.slice(25)))));
    assert.deepEqual(plain(joined.finish()), plain(viewOf(claims)));
  });

  it("joined by addPart give the view add gives, string indexes and all", () => {
    const claims = mixed(500);
    const whole = plain(viewOf(claims));
    for (const sizes of [[1], [7, 1, 64], [500]])
      assert.deepEqual(plain(viewOfParts(claims, sizes)), whole, `parts of ${sizes.join(", ")} claims`);
  });

  it("refuse bytes that are not a part, or a part cut short", () => {
    assert.throws(() => decodeColumnPart(Buffer.from('{"claim_id":"C-1"}\n')), /not an encoded column part/);
    const bytes = encodeColumnPart(viewOf(mixed(10)));
    assert.throws(() => decodeColumnPart(bytes.subarray(0, 20)), /ends inside its header/);
    assert.throws(() => decodeColumnPart(bytes.subarray(0, bytes.length - 64)), /ends inside its columns/);
  });

  it("joined give the same view as the claims added one by one, on real claims", {
    skip: !existsSync(REAL_BATCHES) && `${REAL_BATCHES} is absent: real claims not read`,
  }, () => {
    // the year's claims, as an audit sends them
    const claims = readdirSync(REAL_BATCHES)
      .sort()
      .flatMap(
        (file) =>
          (
            JSON.parse(gunzipSync(readFileSync(join(REAL_BATCHES, file))).toString()) as {
              claims: BatchClaimInput[];
            }
          ).claims,
      );
    assert.ok(claims.length > 10_000, `${claims.length} claims`);
    assert.deepEqual(plain(viewOfParts(claims, [977, 1, 3000])), plain(viewOf(claims)));
  });
});
