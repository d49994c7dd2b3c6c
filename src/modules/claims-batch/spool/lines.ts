import type { BatchClaimInput } from "../claim.js";

export const NEWLINE = 0x0a;

/** the claims of spooled lines, one JSON claim a line (split on bytes: a line splitter's strings cost more) */
export function* claimsOfLines(lines: Buffer): Generator<BatchClaimInput> {
  let start = 0;
  while (start < lines.length) {
    const found = lines.indexOf(NEWLINE, start);
    const end = found === -1 ? lines.length : found;
    if (end > start) yield JSON.parse(lines.toString("utf8", start, end)) as BatchClaimInput;
    start = end + 1;
  }
}

/** a stream of lines read in chunks that may end mid-line, as runs of whole lines (the last may lack its end) */
export async function* wholeLinesOf(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const bytes = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    const lastEnd = bytes.lastIndexOf(NEWLINE);
    if (lastEnd === -1) {
      rest = bytes;
      continue;
    }
    yield bytes.subarray(0, lastEnd + 1);
    rest = bytes.subarray(lastEnd + 1);
  }
  if (rest.length > 0) yield rest;
}
