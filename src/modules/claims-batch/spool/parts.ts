import { createColumnarBuilder } from "../../../engine/fwa/columns/columnar.js";
import { decodeColumnPart, encodeColumnPart, isColumnPart } from "../../../engine/fwa/columns/part.js";
import type { ColumnarBatchView } from "../../../engine/fwa/types.js";
import type { BatchClaimInput } from "../claim.js";
import { claimsOfLines } from "./lines.js";

/** a part holds the claims of at most this many bytes of their JSON (or one claim, when a claim alone is larger) */
export const SPOOL_PART_BYTES = 4 * 1024 ** 2;

/**
 * An upload's accepted claims gathered into parts of bounded size, each part's columns built as they come
 * and encoded when it is full: the claims are parsed once, at the upload, and the analysis reads columns.
 */
export class PartAssembler {
  private builder = createColumnarBuilder();
  private claims = 0;
  private bytes = 0;

  /** `sealed` takes each part's bytes, in order, with its claims */
  constructor(private readonly sealed: (part: Uint8Array, claims: number) => void) {}

  /** one accepted claim, and the bytes of JSON it was parsed from */
  add(claim: BatchClaimInput, jsonBytes: number): void {
    if (this.claims > 0 && this.bytes + jsonBytes > SPOOL_PART_BYTES) this.seal();
    this.builder.add(claim);
    this.claims++;
    this.bytes += jsonBytes;
  }

  /** the claims not yet in a part become the last one */
  end(): void {
    if (this.claims > 0) this.seal();
  }

  private seal(): void {
    const part = encodeColumnPart(this.builder.finish());
    const claims = this.claims;
    this.builder = createColumnarBuilder({ claims });
    this.claims = 0;
    this.bytes = 0;
    this.sealed(part, claims);
  }
}

/** one spooled part's columns: an encoded part, or the JSON lines a spool held before parts */
export function partOfBytes(bytes: Uint8Array): ColumnarBatchView {
  if (isColumnPart(bytes)) return decodeColumnPart(bytes);
  const builder = createColumnarBuilder();
  for (const claim of claimsOfLines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)))
    builder.add(claim);
  return builder.finish();
}
