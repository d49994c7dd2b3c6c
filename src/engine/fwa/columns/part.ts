/**
 * A part of a batch's columns as bytes. The upload builds every few megabytes of claims into columns and
 * spools them so; the analysis appends the parts (ColumnarBuilder.addPart) instead of parsing the JSON a
 * second time. Layout: "MZC1", the header's length (u32, little-endian), the header as JSON (the counts,
 * the part's strings, claim ids and erp item ids), then each column of PART_COLUMNS in that order, each starting at
 * a multiple of 8 bytes from the part's start.
 */
import type { ColumnarBatchView } from "../types.js";

const MAGIC = [0x4d, 0x5a, 0x43, 0x31]; // "MZC1"

type ColumnName = {
  [K in keyof ColumnarBatchView]: ColumnarBatchView[K] extends Int32Array | Uint8Array | Float64Array
    ? K
    : never;
}[keyof ColumnarBatchView];
type Column = Int32Array | Uint8Array | Float64Array;
interface TypedArrayOf {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): Column;
  readonly BYTES_PER_ELEMENT: number;
}
/** how long a column is: per claim, per claim plus one (offsets), per item, per secondary diagnosis */
type Extent = "claims" | "bounds" | "items" | "secondaries";

const PART_COLUMNS: readonly (readonly [ColumnName, TypedArrayOf, Extent])[] = [
  ["firstItem", Int32Array, "bounds"],
  ["claimType", Uint8Array, "claims"],
  ["claimSubType", Uint8Array, "claims"],
  ["isEmergency", Uint8Array, "claims"],
  ["claimDate", Int32Array, "claims"],
  ["admissionDate", Int32Array, "claims"],
  ["dischargeDate", Int32Array, "claims"],
  ["memberId", Int32Array, "claims"],
  ["memberDob", Int32Array, "claims"],
  ["memberGender", Uint8Array, "claims"],
  ["providerId", Int32Array, "claims"],
  ["providerType", Uint8Array, "claims"],
  ["phId", Int32Array, "claims"],
  ["insuranceStart", Int32Array, "claims"],
  ["primaryDiagnosis", Int32Array, "claims"],
  ["firstSecondary", Int32Array, "bounds"],
  ["secondaryDiagnoses", Int32Array, "secondaries"],
  ["preAuthStatus", Uint8Array, "claims"],
  ["daysSupply", Int32Array, "claims"],
  ["itemClaim", Int32Array, "items"],
  ["serviceCode", Int32Array, "items"],
  ["quantity", Float64Array, "items"],
  ["unitAmount", Float64Array, "items"],
  ["itemAdmission", Int32Array, "items"],
  ["itemDischarge", Int32Array, "items"],
  ["itemErpId", Int32Array, "items"],
];

interface PartHeader {
  claims: number;
  items: number;
  secondaries: number;
  strings: string[];
  claimIds: string[];
  erpItemIds: string[];
}

const aligned = (offset: number) => (offset + 7) & ~7;

/** the part's columns as bytes (a view of a part's own builder: its strings are the part's alone) */
export function encodeColumnPart(part: ColumnarBatchView): Uint8Array {
  const header: PartHeader = {
    claims: part.claimCount,
    items: part.itemCount,
    secondaries: part.secondaryDiagnoses.length,
    strings: [...part.strings],
    claimIds: [...part.claimIds],
    erpItemIds: [...part.erpItemIds],
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  let size = aligned(8 + headerBytes.length);
  for (const [name] of PART_COLUMNS) size = aligned(size + part[name].byteLength);
  const bytes = new Uint8Array(size);
  bytes.set(MAGIC, 0);
  new DataView(bytes.buffer).setUint32(4, headerBytes.length, true);
  bytes.set(headerBytes, 8);
  let offset = aligned(8 + headerBytes.length);
  for (const [name] of PART_COLUMNS) {
    const column = part[name];
    bytes.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), offset);
    offset = aligned(offset + column.byteLength);
  }
  return bytes;
}

/** whether the bytes begin as an encoded part does (a spool written before parts holds JSON lines) */
export const isColumnPart = (bytes: Uint8Array): boolean => MAGIC.every((byte, i) => bytes[i] === byte);

/** a part's columns again; its typed arrays are views of `bytes` (copied once when not 8-byte aligned) */
export function decodeColumnPart(encoded: Uint8Array): ColumnarBatchView {
  if (encoded.length < 8 || !isColumnPart(encoded))
    throw new Error("a spool part is not an encoded column part");
  // a copy, not Buffer's slice (a view at the same offset)
  const bytes = encoded.byteOffset % 8 === 0 ? encoded : new Uint8Array(encoded);
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
  if (8 + headerLength > bytes.length) throw new Error("a spool part ends inside its header");
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as PartHeader;
  const extent: Record<Extent, number> = {
    claims: header.claims,
    bounds: header.claims + 1,
    items: header.items,
    secondaries: header.secondaries,
  };
  const columns: Partial<Record<ColumnName, Column>> = {};
  let offset = aligned(8 + headerLength);
  for (const [name, TypedArray, length] of PART_COLUMNS) {
    const count = extent[length];
    if (!(count >= 0) || offset + count * TypedArray.BYTES_PER_ELEMENT > bytes.length)
      throw new Error("a spool part ends inside its columns");
    const column = new TypedArray(bytes.buffer, bytes.byteOffset + offset, count);
    offset = aligned(offset + column.byteLength);
    columns[name] = column;
  }
  return {
    ...(columns as Pick<ColumnarBatchView, ColumnName>),
    claimCount: header.claims,
    itemCount: header.items,
    strings: header.strings,
    claimIds: header.claimIds,
    erpItemIds: header.erpItemIds,
  };
}
