import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import Type from "typebox";
import { Compile } from "typebox/compile";
import { drainBody } from "../../../platform/http/drain.js";
import { DateOnly } from "../../../platform/http/schemas.js";
import { fieldProblems, type SchemaError } from "../../../platform/http/validation.js";
import type { SpoolWriter } from "../spool/spool.js";
import { chunkChecker } from "./chunk-checker.js";
import { ChunkedChecks } from "./chunks.js";
import { type CheckedChunk, MAX_SHOWN, type UploadProblem } from "./claim-chunk.js";
import { BatchSyntaxError, ClaimTooLarge, createClaimSplitter } from "./splitter.js";

export { MAX_SHOWN, type UploadProblem };

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

export const BatchRoot = Type.Object({
  start_date: DateOnly(),
  end_date: DateOnly(),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  batch_reference_id: Type.String({ minLength: 1, maxLength: 100 }),
});

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
 * Streams an upload through gunzip (when compressed) and the claim splitter: the claims are gathered into
 * chunks, each checked in a thread beside the stream (chunks.ts): every claim parsed and checked on its own,
 * and the columns of a chunk without problems built and spooled while the batch is still valid (the analysis
 * does not parse them again). Problems are collected with their claim index, the first MAX_SHOWN kept, all
 * counted. The caps end the upload as soon as they are passed: the body as sent, the JSON once decompressed
 * (a small gzip can expand enormously), and each claim's JSON (so an upload holds a few chunks and at most
 * one claim beyond them, whatever a claim holds).
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
    /** threads that check the claims beside the stream (0: on the stream's own thread) */
    checkThreads: number;
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

  // each chunk's answer, in the claims' order: its problems listed, its part spooled while the batch is valid
  const absorb = (checked: CheckedChunk) => {
    totalItems += checked.items;
    problemCount += checked.problemCount;
    for (const found of checked.problems) if (problems.length < MAX_SHOWN) problems.push(found);
    // an invalid batch is never analysed: spooling stops at its first problem
    if (problemCount === 0 && checked.part !== undefined) spool.append(checked.part, checked.claims);
  };
  const checks = new ChunkedChecks(chunkChecker(options.checkThreads), absorb, options.checkThreads);
  const splitter = createClaimSplitter((bytes, index) => checks.add(bytes, index), {
    maxClaimBytes: options.maxClaimBytes,
  });

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
      await checks.caughtUp();
      await spool.ready();
    }
    const failed = await piped;
    if (failed !== undefined) throw failed;
    await checks.finish();
  } catch (error) {
    checks.abandon();
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
