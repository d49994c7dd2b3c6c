import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import Type from "typebox";
import { Compile } from "typebox/compile";
import { drainBody } from "../../../platform/http/drain.js";
import { DateOnly } from "../../../platform/http/schemas.js";
import { fieldProblems, type SchemaError } from "../../../platform/http/validation.js";
import { BatchClaim, type BatchClaimInput } from "../claim.js";
import type { SpoolWriter } from "../spool/spool.js";
import { BatchSyntaxError, ClaimTooLarge, createClaimSplitter } from "./splitter.js";

/** a problem of an upload as the spec's 400 lists it; claim_index null for the batch itself */
export interface UploadProblem {
  field: string;
  reason: string;
  claim_index: number | null;
}

export interface IngestOutcome {
  root: { start_date?: string; end_date?: string; description?: string; batch_reference_id?: string };
  totalClaims: number;
  totalItems: number;
  /** the first MAX_SHOWN problems */
  problems: UploadProblem[];
  /** all of them */
  problemCount: number;
  /** bytes received (as sent, before any decompression) */
  receivedBytes: number;
}

/** the problems an upload's answer and event list; all are counted */
export const MAX_SHOWN = 100;

export const BatchRoot = Type.Object({
  start_date: DateOnly(),
  end_date: DateOnly(),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  batch_reference_id: Type.String({ minLength: 1, maxLength: 100 }),
});

const checkClaim = Compile(BatchClaim);
const checkRoot = Compile(BatchRoot);

/** below this much JSON any inflation is accepted: the ratio guard needs a sample before it judges */
export const INFLATE_RATIO_FLOOR_BYTES = 64 * 1024 ** 2;

const TOO_LARGE = {
  body: (limit: number) => `the upload exceeds ${limit} bytes`,
  json: (limit: number) => `the batch exceeds ${limit} bytes of JSON`,
  ratio: (limit: number) =>
    `the upload inflates to more than ${limit} times its compressed size (MIZAN_BATCH_MAX_INFLATE_RATIO)`,
};

export class UploadTooLarge extends Error {
  constructor(limit: keyof typeof TOO_LARGE, bound: number, message = TOO_LARGE[limit](bound)) {
    super(message);
    this.name = "UploadTooLarge";
  }

  /** one claim passed MIZAN_BATCH_MAX_CLAIM_BYTES: the message names it, by index and claim_id when known */
  static ofClaim(found: ClaimTooLarge): UploadTooLarge {
    const id = found.claimId === undefined ? "" : ` (claim_id ${JSON.stringify(found.claimId)})`;
    const message = `claims[${found.index}]${id} exceeds ${found.limit} bytes of JSON (MIZAN_BATCH_MAX_CLAIM_BYTES)`;
    return new UploadTooLarge("json", found.limit, message);
  }
}

/**
 * Streams an upload through gunzip (when compressed) and the claim splitter: each claim is parsed and
 * checked on its own, and while the batch is still valid goes to the spool, which builds its columns (the
 * analysis does not parse it again). Problems are collected with
 * their claim index, the first MAX_SHOWN kept, all counted. The caps end the upload as soon as they are
 * passed: the body as sent, the JSON once decompressed (a small gzip can expand enormously), and each
 * claim's JSON (so one upload holds at most one claim's bytes, whatever a claim holds).
 */
export async function ingestBatch(
  body: Readable,
  options: {
    gzip: boolean;
    /** where the accepted claims go; the caller finishes or aborts it */
    spool: SpoolWriter;
    maxUploadBytes: number;
    maxJsonBytes: number;
    maxInflateRatio: number;
    /** one claim's JSON may not exceed this many bytes (checked as it streams, before it is kept) */
    maxClaimBytes: number;
  },
): Promise<IngestOutcome> {
  const problems: UploadProblem[] = [];
  let problemCount = 0;
  const problem = (found: UploadProblem) => {
    problemCount++;
    if (problems.length < MAX_SHOWN) problems.push(found);
  };
  let totalItems = 0;
  let receivedBytes = 0;
  let jsonBytes = 0;
  const spool = options.spool;

  const splitter = createClaimSplitter(
    (bytes, index) => {
      let claim: unknown;
      try {
        claim = JSON.parse(bytes.toString("utf8"));
      } catch {
        problem({ field: `claims[${index}]`, reason: "is not valid JSON", claim_index: index });
        return;
      }
      if (!checkClaim.Check(claim)) {
        for (const found of fieldProblems(checkClaim.Errors(claim) as unknown as SchemaError[], "claim"))
          problem({ field: `claims[${index}].${found.field}`, reason: found.reason, claim_index: index });
        return;
      }
      const valid = claim as BatchClaimInput;
      totalItems += valid.claim_items.length;
      if (problemCount > 0) return; // an invalid batch is never analysed: stop spooling
      spool.append(valid, bytes.length);
    },
    { maxClaimBytes: options.maxClaimBytes },
  );

  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      receivedBytes += chunk.length;
      if (receivedBytes > options.maxUploadBytes) done(new UploadTooLarge("body", options.maxUploadBytes));
      else done(null, chunk);
    },
  });
  // the request itself stays out of the pipeline, which would destroy it (and reset its client) on error
  body.pipe(counted);
  body.once("error", (error) => counted.destroy(error));
  const stages: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = [counted];
  if (options.gzip) stages.push(createGunzip({ chunkSize: 256 * 1024 }));
  const source = stages.at(-1) as unknown as AsyncIterable<Buffer>;
  const piped = (stages.length > 1 ? pipeline(stages as never) : Promise.resolve()).catch(
    (error: unknown) => error,
  );
  let syntaxError: BatchSyntaxError | undefined;
  try {
    for await (const chunk of source) {
      jsonBytes += chunk.length;
      if (jsonBytes > options.maxJsonBytes) throw new UploadTooLarge("json", options.maxJsonBytes);
      if (jsonBytes > INFLATE_RATIO_FLOOR_BYTES && jsonBytes > options.maxInflateRatio * receivedBytes)
        throw new UploadTooLarge("ratio", options.maxInflateRatio);
      if (syntaxError !== undefined) continue; // read to the end, so the answer reaches the client
      try {
        splitter.write(chunk);
      } catch (error) {
        if (error instanceof ClaimTooLarge) throw UploadTooLarge.ofClaim(error);
        if (!(error instanceof BatchSyntaxError)) throw error;
        syntaxError = error;
      }
      await spool.ready();
    }
    const failed = await piped;
    if (failed !== undefined) throw failed;
  } catch (error) {
    body.unpipe(counted);
    for (const stage of stages) (stage as Readable).destroy?.();
    await drainBody(body);
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "Z_DATA_ERROR" && code !== "Z_BUF_ERROR") throw error;
    // not gzip after all: a problem of the upload, answered like any other
    problem({ field: "body", reason: `is not valid gzip (at byte ${receivedBytes})`, claim_index: null });
    return { root: {}, totalClaims: 0, totalItems, problems, problemCount, receivedBytes };
  }

  let root: IngestOutcome["root"] = {};
  let totalClaims = 0;
  if (syntaxError !== undefined) problem({ field: "body", reason: syntaxError.message, claim_index: null });
  else {
    let outcome: ReturnType<ReturnType<typeof createClaimSplitter>["end"]> | undefined;
    try {
      outcome = splitter.end();
    } catch (error) {
      if (!(error instanceof BatchSyntaxError)) throw error;
      problem({ field: "body", reason: error.message, claim_index: null });
    }
    if (outcome !== undefined) {
      root = outcome.root as IngestOutcome["root"];
      totalClaims = outcome.claims;
      checkRootFields(outcome.root, outcome.claimsPresent, outcome.claims, problem);
    }
  }
  return { root, totalClaims, totalItems, problems, problemCount, receivedBytes };
}

/** the batch's own fields, and its end not before its start */
function checkRootFields(
  root: Record<string, unknown>,
  claimsPresent: boolean,
  claims: number,
  problem: (found: UploadProblem) => void,
): void {
  const batchLevel = (field: string, reason: string) => problem({ field, reason, claim_index: null });
  const rootValid = checkRoot.Check(root);
  if (!rootValid)
    for (const found of fieldProblems(checkRoot.Errors(root) as unknown as SchemaError[], "body"))
      batchLevel(found.field, found.reason);
  if (!claimsPresent) batchLevel("claims", "is required");
  else if (claims === 0) batchLevel("claims", "must hold at least 1 claim");
  const { start_date: start, end_date: end } = root;
  if (typeof start === "string" && typeof end === "string" && rootValid && end < start)
    batchLevel("end_date", "must not be before start_date");
}
