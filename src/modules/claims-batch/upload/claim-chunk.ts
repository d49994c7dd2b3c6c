import { Compile } from "typebox/compile";
import { createColumnarBuilder } from "../../../engine/fwa/columns/columnar.js";
import { encodeColumnPart } from "../../../engine/fwa/columns/part.js";
import { fieldProblems, type SchemaError } from "../../../platform/http/validation.js";
import { BatchClaim, type BatchClaimInput } from "../claim.js";

/** a problem of an upload as the spec's 400 lists it; claim_index null for the batch itself */
export interface UploadProblem {
  field: string;
  reason: string;
  claim_index: number | null;
}

/** the problems an upload's answer and event list; all are counted */
export const MAX_SHOWN = 100;

/** a chunk holds the claims of at most this many bytes of JSON (or one claim, when a claim alone is larger) */
export const CHUNK_BYTES = 4 * 1024 ** 2;

/** claims cut from an upload one after another, checked together: one chunk becomes one part of the spool */
export interface ClaimChunk {
  /** the index in the batch of the chunk's first claim */
  firstIndex: number;
  /** the claims' JSON, one after another (handed over: a check thread may take its memory) */
  bytes: Uint8Array;
  /** where each claim's JSON ends in `bytes` */
  ends: number[];
}

/** what a chunk's check found: its counts, its first MAX_SHOWN problems, and its part when it has none */
export interface CheckedChunk {
  claims: number;
  items: number;
  problems: UploadProblem[];
  problemCount: number;
  /** the claims' columns, encoded (columns/part.ts), when every claim passed */
  part: Uint8Array | undefined;
}

const checkClaim = Compile(BatchClaim);

/** each claim of the chunk parsed and checked on its own; the columns of a chunk without problems built */
export function checkChunk(chunk: ClaimChunk): CheckedChunk {
  const checked: CheckedChunk = {
    claims: chunk.ends.length,
    items: 0,
    problems: [],
    problemCount: 0,
    part: undefined,
  };
  const problem = (found: UploadProblem) => {
    checked.problemCount++;
    if (checked.problems.length < MAX_SHOWN) checked.problems.push(found);
  };
  const text = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.length);
  const columns = createColumnarBuilder({ claims: chunk.ends.length });
  let start = 0;
  for (const [n, end] of chunk.ends.entries()) {
    const index = chunk.firstIndex + n;
    let claim: unknown;
    try {
      claim = JSON.parse(text.toString("utf8", start, end));
    } catch {
      claim = undefined;
      problem({ field: `claims[${index}]`, reason: "is not valid JSON", claim_index: index });
    }
    start = end;
    if (claim === undefined) continue;
    if (!checkClaim.Check(claim)) {
      for (const found of fieldProblems(checkClaim.Errors(claim) as unknown as SchemaError[], "claim"))
        problem({ field: `claims[${index}].${found.field}`, reason: found.reason, claim_index: index });
      continue;
    }
    const valid = claim as BatchClaimInput;
    checked.items += valid.claim_items.length;
    // an invalid batch is never analysed: its columns are not built
    if (checked.problemCount === 0) columns.add(valid);
  }
  if (checked.problemCount === 0) checked.part = encodeColumnPart(columns.finish());
  return checked;
}
