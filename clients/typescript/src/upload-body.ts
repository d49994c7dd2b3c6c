import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream";
import { promisify } from "node:util";
import { createGzip, gzip } from "node:zlib";

/** a batch to upload: a file's path, a Node stream (read once, never retried), its bytes, or the batch object */
export type BatchSource = string | NodeJS.ReadableStream | Uint8Array | object;

export interface UploadBodyOptions {
  /** compress on the way (node:zlib) and send `Content-Encoding: gzip` */
  gzip?: boolean;
  /** the source is gzip already: sent as is with `Content-Encoding: gzip` (default: a path ending in .gz) */
  sourceIsGzip?: boolean;
  /** bytes sent so far on this try, of `totalBytes` when that is known before sending (not when compressing a stream or file) */
  onProgress?(sentBytes: number, totalBytes?: number): void;
}

export interface UploadBody {
  headers: Record<string, string>;
  /** a new stream of the body for each try */
  open(): ReadableStream<Uint8Array>;
  replayable: boolean;
}

/** bytes handed to the service in slices, so progress is reported as they go */
const SLICE = 64 * 1024;

const isNodeStream = (source: BatchSource): source is NodeJS.ReadableStream =>
  typeof (source as { pipe?: unknown }).pipe === "function";

function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += SLICE)
    yield bytes.subarray(offset, offset + SLICE);
}

/**
 * A pull stream: the next chunk is read only when fetch asks for it, so a large file is never held whole
 * (a push stream would read ahead as fast as the disk goes).
 */
function counted(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>,
  totalBytes: number | undefined,
  onProgress: UploadBodyOptions["onProgress"],
): ReadableStream<Uint8Array> {
  const iterator =
    Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) return controller.close();
        const chunk = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
        sent += chunk.byteLength;
        controller.enqueue(chunk);
        onProgress?.(sent, totalBytes);
      },
      async cancel(reason) {
        // closes the file (or stops the caller's stream) when fetch gives up on the body
        await iterator.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function compressed(source: NodeJS.ReadableStream): NodeJS.ReadableStream {
  // pipeline passes a read error on to the gzip stream, which the upload then fails with
  return pipeline(source, createGzip(), () => {});
}

/** the body of `POST /v1/claims/batch/upload` and its headers */
export async function uploadBody(source: BatchSource, options: UploadBodyOptions): Promise<UploadBody> {
  const { onProgress } = options;
  const gzipped = options.sourceIsGzip ?? (typeof source === "string" && source.endsWith(".gz"));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(gzipped || options.gzip ? { "content-encoding": "gzip" } : {}),
  };
  if (typeof source === "string") {
    // a missing file fails here, plainly, rather than as a broken upload
    const { size } = await stat(source);
    const compress = options.gzip && !gzipped;
    const open = () => {
      const file = createReadStream(source);
      return counted(compress ? compressed(file) : file, compress ? undefined : size, onProgress);
    };
    return { headers, open, replayable: true };
  }
  if (isNodeStream(source)) {
    const stream = options.gzip && !gzipped ? compressed(source) : source;
    return { headers, open: () => counted(stream, undefined, onProgress), replayable: false };
  }
  // an object or bytes is in memory already: compressed once, sent again as is on a retry
  const raw = source instanceof Uint8Array ? source : Buffer.from(JSON.stringify(source));
  const bytes = options.gzip && !gzipped ? await promisify(gzip)(raw) : raw;
  return { headers, open: () => counted(slices(bytes), bytes.byteLength, onProgress), replayable: true };
}
