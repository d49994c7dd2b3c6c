import { createColumnarBuilder } from "../../../engine/fwa/columns/columnar.js";
import { decodeColumnPart, isColumnPart } from "../../../engine/fwa/columns/part.js";
import type { ColumnarBatchView } from "../../../engine/fwa/types.js";
import { claimsOfLines } from "./lines.js";

/** one spooled part's columns: an encoded part, or the JSON lines a spool held before parts */
export function partOfBytes(bytes: Uint8Array): ColumnarBatchView {
  if (isColumnPart(bytes)) return decodeColumnPart(bytes);
  const builder = createColumnarBuilder();
  for (const claim of claimsOfLines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)))
    builder.add(claim);
  return builder.finish();
}
