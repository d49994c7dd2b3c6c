/**
 * Cuts the elements of a batch's `claims` array out of the uploaded bytes as they stream in, so a batch
 * is never one string (V8 strings stop at 512 MiB; a million items is about 450 MB of JSON). The root
 * object's other fields are small and parsed whole; each claim is handed over as its own bytes.
 *
 * The scanner is a byte state machine that only tracks what it must: nesting, strings (skipped with
 * indexOf to the next quote) and the root's keys. Malformed JSON ends the upload with its byte offset.
 */

import { claimIdIn } from "./claim-id.js";

export class BatchSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset})`);
    this.name = "BatchSyntaxError";
  }
}

/** the root fields other than claims may not be this long (they are dates, ids and a description) */
const MAX_ROOT_VALUE = 64 * 1024;
/** nor all of them together, keys included: the root is kept whole while the claims stream past */
const MAX_ROOT_TOTAL = 256 * 1024;

/** a claim's JSON passed the bound: the upload ends there, the claim never parsed */
export class ClaimTooLarge extends Error {
  constructor(
    readonly index: number,
    /** its claim_id, when its first bytes hold one */
    readonly claimId: string | undefined,
    readonly limit: number,
  ) {
    super(`claims[${index}] exceeds ${limit} bytes of JSON`);
    this.name = "ClaimTooLarge";
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

type State =
  | "start"
  | "key-or-end"
  | "key"
  | "colon"
  | "value"
  | "root-value"
  | "after-value"
  | "claims-element-or-end"
  | "claim"
  | "after-claim"
  | "done";

export interface SplitOutcome {
  /** the root's fields other than claims, parsed */
  root: Record<string, unknown>;
  /** whether a `claims` array was present */
  claimsPresent: boolean;
  claims: number;
}

/**
 * A splitter: `write` each chunk in order, then `end`. `onClaim` receives each claim's bytes and its
 * index (the bytes are valid only during the call). A claim longer than `maxClaimBytes` throws
 * ClaimTooLarge as soon as its bytes pass the bound, before they are kept.
 */
export function createClaimSplitter(
  onClaim: (bytes: Buffer, index: number) => void,
  { maxClaimBytes = Number.POSITIVE_INFINITY }: { maxClaimBytes?: number } = {},
) {
  let state: State = "start";
  let offset = 0; // bytes consumed before the current chunk
  const root: Record<string, unknown> = {};
  let claimsPresent = false;
  let claims = 0;
  // the piece being collected (a key, a root value, a claim), across chunks
  let pieces: Buffer[] = [];
  let pieceLength = 0;
  /** bytes of the root's own keys and values so far */
  let rootLength = 0;
  let depth = 0;
  let inString = false;
  /** backslashes that ended the previous chunk inside a string (they may escape a quote at the start) */
  let carriedBackslashes = 0;
  let key = "";

  /** the backslashes just before `at`, back to `from` (and those carried over when the run reaches 0) */
  const backslashesBefore = (chunk: Buffer, at: number, from: number): number => {
    let count = 0;
    let j = at - 1;
    while (j >= from && chunk[j] === BACKSLASH) {
      count++;
      j--;
    }
    return j < 0 ? count + carriedBackslashes : count;
  };

  const fail = (message: string, at: number): never => {
    throw new BatchSyntaxError(message, offset + at);
  };
  /** keeps a piece's bytes, each bound checked before they are kept */
  const take = (chunk: Buffer, from: number, to: number) => {
    if (to <= from) return;
    if (state === "claim" && pieceLength + (to - from) > maxClaimBytes) {
      const head = chunk.subarray(from, from + (maxClaimBytes - pieceLength));
      throw new ClaimTooLarge(claims, claimIdIn(Buffer.concat([...pieces, head])), maxClaimBytes);
    }
    if (state !== "claim") {
      rootLength += to - from;
      if (pieceLength + (to - from) > MAX_ROOT_VALUE) fail("a field of the batch is too long", to);
      if (rootLength > MAX_ROOT_TOTAL) fail("the fields of the batch other than claims are too long", to);
    }
    pieces.push(chunk.subarray(from, to));
    pieceLength += to - from;
  };
  const collected = (): Buffer => {
    const whole = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, pieceLength);
    pieces = [];
    pieceLength = 0;
    return whole;
  };

  /**
   * Scans a JSON value that started earlier (depth > 0 or inside a string) from `i`; returns the index
   * just after it ends, or -1 when the chunk ends first.
   */
  const scanValue = (chunk: Buffer, start: number): number => {
    let i = start;
    const n = chunk.length;
    while (i < n) {
      if (inString) {
        // the next quote ends the string unless an odd run of backslashes escapes it
        const quote = chunk.indexOf(QUOTE, i);
        if (quote === -1) {
          carriedBackslashes = backslashesBefore(chunk, n, i);
          return -1;
        }
        if (backslashesBefore(chunk, quote, i) % 2 === 1) {
          carriedBackslashes = 0;
          i = quote + 1;
          continue;
        }
        carriedBackslashes = 0;
        i = quote + 1;
        inString = false;
        if (depth === 0) return i; // a string value at the top of the piece
        continue;
      }
      const byte = chunk[i] as number;
      if (depth === 0 && (byte === COMMA || isSpace(byte) || byte === CLOSE_BRACE)) {
        return i; // the end of a number, true, false or null
      }
      if (byte === QUOTE) {
        inString = true;
        carriedBackslashes = 0;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
        if (depth < 0) fail("unbalanced brackets", i);
      }
      i++;
    }
    return -1;
  };

  /** scans the piece on from `i` and collects its bytes; the index after it, or -1 when the chunk ends first */
  const piece = (chunk: Buffer, i: number): number => {
    const end = scanValue(chunk, i);
    take(chunk, i, end === -1 ? chunk.length : end);
    return end;
  };

  function write(chunk: Buffer): void {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      switch (state) {
        case "start":
        case "key-or-end":
        case "colon":
        case "after-value":
        case "claims-element-or-end":
        case "after-claim": {
          const byte = chunk[i] as number;
          if (isSpace(byte)) {
            i++;
            break;
          }
          i = structural(byte, i);
          break;
        }
        case "key": {
          const end = piece(chunk, i);
          if (end === -1) {
            i = n;
            break;
          }
          key = JSON.parse(collected().toString("utf8")) as string;
          state = "colon";
          i = end;
          break;
        }
        case "value": {
          const byte = chunk[i] as number;
          if (isSpace(byte)) {
            i++;
            break;
          }
          if (key === "claims") {
            if (byte !== OPEN_BRACKET) fail("claims must be an array", i);
            claimsPresent = true;
            state = "claims-element-or-end";
            i++;
            break;
          }
          depth = 0;
          inString = false;
          state = "root-value";
          break;
        }
        case "root-value": {
          const end = piece(chunk, i);
          if (end === -1) {
            i = n;
            break;
          }
          const text = collected().toString("utf8");
          try {
            root[key] = JSON.parse(text);
          } catch {
            fail(`the value of ${key} is not valid JSON`, end);
          }
          state = "after-value";
          i = end;
          break;
        }
        case "claim": {
          const end = piece(chunk, i);
          if (end === -1) {
            i = n;
            break;
          }
          onClaim(collected(), claims);
          claims++;
          state = "after-claim";
          i = end;
          break;
        }
        case "done": {
          if (!isSpace(chunk[i] as number)) fail("unexpected content after the batch", i);
          i++;
          break;
        }
      }
    }
    offset += n;
  }

  /** one structural byte outside any value; returns where scanning goes on */
  function structural(byte: number, i: number): number {
    switch (state) {
      case "start":
        if (byte !== OPEN_BRACE) fail("the batch must be a JSON object", i);
        state = "key-or-end";
        return i + 1;
      case "key-or-end":
        if (byte === CLOSE_BRACE) {
          state = "done";
          return i + 1;
        }
        if (byte !== QUOTE) fail("a field name was expected", i);
        inString = false;
        depth = 0;
        state = "key";
        return i; // the key's scan starts at its opening quote
      case "colon":
        if (byte !== COLON) fail("':' was expected", i);
        state = "value";
        return i + 1;
      case "after-value":
        if (byte === COMMA) {
          state = "key-or-end";
          return i + 1;
        }
        if (byte === CLOSE_BRACE) {
          state = "done";
          return i + 1;
        }
        return fail("',' or '}' was expected", i);
      case "claims-element-or-end":
        if (byte === CLOSE_BRACKET && claims === 0) {
          state = "after-value";
          return i + 1;
        }
        if (byte !== OPEN_BRACE) fail(`claims[${claims}] must be an object`, i);
        depth = 0;
        inString = false;
        state = "claim";
        return i;
      case "after-claim":
        if (byte === COMMA) {
          state = "claims-element-or-end";
          return i + 1;
        }
        if (byte === CLOSE_BRACKET) {
          state = "after-value";
          return i + 1;
        }
        return fail("',' or ']' was expected after a claim", i);
      default:
        return fail("unexpected state", i);
    }
  }

  return {
    write,
    end(): SplitOutcome {
      if (state === "start") fail("the upload holds no JSON (it is empty)", 0);
      if (state !== "done") fail("the batch ends before its JSON is complete", 0);
      return { root, claimsPresent, claims };
    },
  };
}
