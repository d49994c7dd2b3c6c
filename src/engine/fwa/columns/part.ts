/**
 * A part of a batch's columns as bytes. The upload builds every few megabytes of claims into columns and
 * spools them so; the analysis appends the parts (ColumnarBuilder.addPart) instead of parsing the JSON a
 * second time. Layout: "MZC2", the header's length (u32, little-endian), the header as JSON (the counts and
 * the part's strings), then each column of PART_COLUMNS in that order, then the claim ids' and the erp item
 * ids' offsets and bytes (texts.ts), each starting at a multiple of 8 bytes from the part's start. Parts of
 * the first layout ("MZC1": the ids in the header, as JSON) are still read: a spool may outlive an upgrade.
 */
import type { ColumnarBatchView } from "../types.js";
import { packTexts } from "./texts.js";

const MAGIC = [0x4d, 0x5a, 0x43, 0x32]; // "MZC2"
const FIRST_MAGIC = [0x4d, 0x5a, 0x43, 0x31]; // "MZC1"

type ColumnName = {
  [K in keyof ColumnarBatchView]: ColumnarBatchView[K] extends Int32Array | Uint8Array | Float64Array
    ? K
    : never;
}[keyof ColumnarBatchView];
type Column = Int32Array | Uint8Array | Float64Array;
interface TypedArrayOf<T extends Column = Column> {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
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
  /** MZC2: how many erp item ids, and the byte lengths of both kinds of ids */
  erpIds?: number;
  claimIdBytes?: number;
  erpIdBytes?: number;
  /** MZC1: the ids themselves */
  claimIds?: string[];
  erpItemIds?: string[];
}

/** the ids' columns after PART_COLUMNS, in this order */
const textColumnsOf = (part: ColumnarBatchView): Column[] => [
  part.claimIds.offsets,
  part.erpItemIds.offsets,
  part.claimIds.bytes,
  part.erpItemIds.bytes,
];

const aligned = (offset: number) => (offset + 7) & ~7;

/** the part's columns as bytes (a view of a part's own builder: its strings are the part's alone) */
export function encodeColumnPart(part: ColumnarBatchView): Uint8Array {
  const header: PartHeader = {
    claims: part.claimCount,
    items: part.itemCount,
    secondaries: part.secondaryDiagnoses.length,
    strings: [...part.strings],
    erpIds: part.erpItemIds.count,
    claimIdBytes: part.claimIds.bytes.length,
    erpIdBytes: part.erpItemIds.bytes.length,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const columns = [...PART_COLUMNS.map(([name]) => part[name]), ...textColumnsOf(part)];
  let size = aligned(8 + headerBytes.length);
  for (const column of columns) size = aligned(size + column.byteLength);
  const bytes = new Uint8Array(size);
  bytes.set(MAGIC, 0);
  new DataView(bytes.buffer).setUint32(4, headerBytes.length, true);
  bytes.set(headerBytes, 8);
  let offset = aligned(8 + headerBytes.length);
  for (const column of columns) {
    bytes.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), offset);
    offset = aligned(offset + column.byteLength);
  }
  return bytes;
}

const begins = (bytes: Uint8Array, magic: readonly number[]): boolean =>
  magic.every((byte, i) => bytes[i] === byte);

/** whether the bytes begin as an encoded part does (a spool written before parts holds JSON lines) */
export const isColumnPart = (bytes: Uint8Array): boolean =>
  begins(bytes, MAGIC) || begins(bytes, FIRST_MAGIC);

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
  let offset = aligned(8 + headerLength);
  const next = <T extends Column>(TypedArray: TypedArrayOf<T>, count: number): T => {
    const size = count * TypedArray.BYTES_PER_ELEMENT;
    if (!(count >= 0) || offset + size > bytes.length)
      throw new Error("a spool part ends inside its columns");
    const column = new TypedArray(bytes.buffer, bytes.byteOffset + offset, count);
    offset = aligned(offset + size);
    return column;
  };
  const columns: Partial<Record<ColumnName, Column>> = {};
  for (const [name, TypedArray, length] of PART_COLUMNS) columns[name] = next(TypedArray, extent[length]);
  let ids: Pick<ColumnarBatchView, "claimIds" | "erpItemIds">;
  if (begins(bytes, FIRST_MAGIC)) {
    ids = { claimIds: packTexts(header.claimIds ?? []), erpItemIds: packTexts(header.erpItemIds ?? []) };
  } else {
    const erpIds = header.erpIds ?? 0;
    const claimOffsets = next(Int32Array, header.claims + 1);
    const erpOffsets = next(Int32Array, erpIds + 1);
    ids = {
      claimIds: {
        count: header.claims,
        offsets: claimOffsets,
        bytes: next(Uint8Array, header.claimIdBytes ?? 0),
      },
      erpItemIds: { count: erpIds, offsets: erpOffsets, bytes: next(Uint8Array, header.erpIdBytes ?? 0) },
    };
  }
  return {
    ...(columns as Pick<ColumnarBatchView, ColumnName>),
    claimCount: header.claims,
    itemCount: header.items,
    strings: header.strings,
    ...ids,
  };
}
