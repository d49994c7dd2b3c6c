/**
 * The claim_id of a claim from its first bytes only (a claim refused for its size is never parsed): the
 * string value of its top-level key `claim_id`, when it comes before the cut and is a plausible id.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPENERS = new Set([0x7b, 0x5b]);
const CLOSERS = new Set([0x7d, 0x5d]);
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** a claim_id longer than this is no valid one (the schema's bound), and is not repeated in a message */
const MAX_ID = 255;

/** the index just after the string that opens at `start`, or -1 when the bytes end first */
function stringEnd(bytes: Buffer, start: number): number {
  for (let i = start + 1; i < bytes.length; i++) {
    if (bytes[i] === BACKSLASH) i++;
    else if (bytes[i] === QUOTE) return i + 1;
  }
  return -1;
}

export function claimIdIn(head: Buffer): string | undefined {
  let depth = 0;
  let expectKey = false;
  let isIdValue = false;
  for (let i = 0; i < head.length; ) {
    const byte = head[i] as number;
    if (byte === QUOTE) {
      const end = stringEnd(head, i);
      if (end === -1) return undefined;
      if (depth === 1 && (expectKey || isIdValue)) {
        let text: unknown;
        try {
          text = JSON.parse(head.subarray(i, end).toString("utf8"));
        } catch {
          return undefined;
        }
        if (isIdValue) return typeof text === "string" && text.length <= MAX_ID ? text : undefined;
        isIdValue = text === "claim_id";
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (OPENERS.has(byte)) {
      if (depth === 0) expectKey = true;
      else if (depth === 1) isIdValue = false; // claim_id is an object or an array: no id
      depth++;
    } else if (CLOSERS.has(byte)) {
      depth--;
      if (depth <= 0) return undefined;
    } else if (depth === 1 && byte === COMMA) expectKey = true;
    else if (depth === 1 && byte !== COLON && !isSpace(byte)) isIdValue = false; // a number, true, null
    i++;
  }
  return undefined;
}
