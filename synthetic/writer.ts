/**
 * The batch as JSON, streamed in chunks and never held whole (250,000 claims are about 370 MB), into a file or
 * stdout, gzip-compressed on request; the ground truth of injected patterns goes beside it as JSON lines.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { Readable, Transform, type Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGzip } from "node:zlib";
import { resolveConfig } from "./config.js";
import { dateText } from "./dates.js";
import { claimsOf } from "./generate.js";
import type { BatchStats, GenerateBatchOptions, GeneratedBatch, TruthRecord, TruthSink } from "./types.js";

/**
 * The batch as JSON bytes, in chunks of about `chunkBytes`. The options are checked at once (this throws);
 * every iteration generates the batch anew, byte for byte the same.
 */
export function generateBatch(options: GenerateBatchOptions): GeneratedBatch {
  const config = resolveConfig(options);
  const stats: BatchStats = { claims: 0, items: 0, bytes: 0 };
  return {
    stats,
    async *[Symbol.asyncIterator]() {
      stats.claims = stats.items = stats.bytes = 0;
      let chunk =
        `{"start_date":"${dateText(config.start)}","end_date":"${dateText(config.end)}",` +
        (config.description === "" ? "" : `"description":${JSON.stringify(config.description)},`) +
        `"batch_reference_id":${JSON.stringify(config.reference)},"claims":[`;
      for (const claim of claimsOf(config)) {
        chunk += (stats.claims === 0 ? "" : ",") + JSON.stringify(claim);
        stats.claims += 1;
        stats.items += claim.claim_items.length;
        if (chunk.length >= config.chunkBytes) {
          const bytes = Buffer.from(chunk);
          stats.bytes += bytes.length;
          chunk = "";
          yield bytes;
        }
      }
      const bytes = Buffer.from(`${chunk}]}\n`);
      stats.bytes += bytes.length;
      yield bytes;
    },
  };
}

export interface WriteOptions {
  /** a file; stdout when absent */
  out?: string;
  /** default: when `out` ends in .gz */
  gzip?: boolean;
  /** gzip level, 1-9; default 6 */
  level?: number;
  /**
   * where the ground truth of injected patterns goes (JSON lines); default beside `out`: its name without
   * .gz and .json, then .truth.jsonl. Needed when injecting to stdout (unless the options carry a truth sink).
   */
  truth?: string;
}

export interface WriteResult extends BatchStats {
  /** bytes written (compressed when gzip) */
  written: number;
  gzip: boolean;
  seconds: number;
  /** the ground truth file, when injecting */
  truth?: { path: string; records: number };
}

/** the ground truth's default file beside a batch file: claims.json.gz -> claims.truth.jsonl */
export const truthPathOf = (out: string): string => `${out.replace(/(\.json)?(\.gz)?$/i, "")}.truth.jsonl`;

/** a truth sink writing JSON lines to a file, in blocks */
function truthFile(path: string, also: TruthSink | undefined) {
  const stream: WriteStream = createWriteStream(path);
  let block = "";
  let records = 0;
  const sink: TruthSink = (record: TruthRecord) => {
    block += `${JSON.stringify(record)}\n`;
    records += 1;
    if (block.length >= 1 << 16) {
      stream.write(block);
      block = "";
    }
    also?.(record);
  };
  return {
    sink,
    async close(): Promise<number> {
      stream.end(block);
      await finished(stream);
      return records;
    },
    abort: () => stream.destroy(),
  };
}

async function* paced(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    yield chunk;
    await nextTurn();
  }
}

/** generates a batch into a file or stdout, gzip-compressed on request, respecting backpressure */
export async function writeBatch(
  options: GenerateBatchOptions,
  target: WriteOptions = {},
): Promise<WriteResult> {
  const began = performance.now();
  if (target.truth !== undefined && options.inject === undefined)
    throw new Error("a truth file needs injected patterns (inject)");
  const truthPath =
    options.inject === undefined
      ? undefined
      : (target.truth ?? (target.out === undefined ? undefined : truthPathOf(target.out)));
  if (options.inject !== undefined && truthPath === undefined && options.truth === undefined)
    throw new Error("injected patterns need a truth file when the batch goes to stdout");
  const truth = truthPath === undefined ? undefined : truthFile(truthPath, options.truth);
  const batch = generateBatch(truth === undefined ? options : { ...options, truth: truth.sink });
  const gzip = target.gzip ?? target.out?.endsWith(".gz") ?? false;
  let written = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      done(null, chunk);
    },
  });
  const sink: Writable = target.out === undefined ? process.stdout : createWriteStream(target.out);
  // generating (main thread) and compressing (thread pool) overlap: the event loop turns after every chunk,
  // so zlib's callbacks run and its next job starts while the next chunk is made; an output buffer larger
  // than a compressed chunk makes one job of each chunk
  const source = Readable.from(paced(batch), { objectMode: false, highWaterMark: 1 << 22 });
  try {
    if (gzip)
      await pipeline(source, createGzip({ level: target.level ?? 6, chunkSize: 1 << 20 }), count, sink);
    else await pipeline(source, count, sink);
  } catch (error) {
    truth?.abort();
    throw error;
  }
  const records = await truth?.close();
  return {
    ...{ ...batch.stats, written, gzip, seconds: (performance.now() - began) / 1000 },
    ...(truthPath === undefined ? {} : { truth: { path: truthPath, records: records ?? 0 } }),
  };
}
