import { createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { decodeColumnPart } from "../../../engine/fwa/columns/part.js";
import type { ColumnarBatchView } from "../../../engine/fwa/types.js";
import { wholeLinesOf } from "./lines.js";
import { partOfBytes } from "./parts.js";
import type { BatchSpool, SpooledBatch, SpoolWriter } from "./spool.js";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** a part's length before its bytes, in the spool file */
const LENGTH_BYTES = 4;

/** a spool file's parts in order, each read whole (a file of parts holds nothing else) */
async function* readParts(path: string): AsyncGenerator<ColumnarBatchView> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const length = Buffer.alloc(LENGTH_BYTES);
    for (let position = 0; position < size; ) {
      const head = await file.read(length, 0, LENGTH_BYTES, position);
      const bytes = length.readUInt32LE(0);
      if (head.bytesRead < LENGTH_BYTES || position + LENGTH_BYTES + bytes > size)
        throw new Error(`the spool file ends inside a part, at byte ${position}`);
      const part = Buffer.allocUnsafeSlow(bytes);
      await file.read(part, 0, bytes, position + LENGTH_BYTES);
      position += LENGTH_BYTES + bytes;
      yield decodeColumnPart(part);
    }
  } finally {
    await file.close();
  }
}

/** a spool file of JSON lines, as written before parts, read as parts of a few megabytes of lines each */
async function* readLegacyLines(path: string): AsyncGenerator<ColumnarBatchView> {
  for await (const lines of wholeLinesOf(createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })))
    yield partOfBytes(lines);
}

/** the parts of one upload into `name` in the directory, each after its length */
function fileWriter(dir: string, name: string): SpoolWriter {
  const path = join(dir, name);
  const stream = createWriteStream(path, { highWaterMark: 4 * 1024 * 1024 });
  const failed = new Promise<never>((_resolve, reject) => stream.once("error", reject));
  failed.catch(() => {}); // surfaced by ready() and finish()
  return {
    append(part) {
      const length = Buffer.alloc(LENGTH_BYTES);
      length.writeUInt32LE(part.length, 0);
      stream.write(length);
      stream.write(part);
    },
    async ready() {
      if (stream.writableNeedDrain)
        await Promise.race([new Promise<void>((resolve) => stream.once("drain", () => resolve())), failed]);
    },
    async finish() {
      await new Promise<void>((resolve, reject) =>
        stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      return { spool_path: name, spool_parts: null };
    },
    async abort() {
      stream.destroy();
      await rm(path, { force: true });
    },
  };
}

/**
 * The spool as one file a batch in a directory (MIZAN_SPOOL_DIR), its column parts one after another: the
 * fastest, for one node or nodes that share the directory as one volume.
 */
export function fileSpool(dir: string): BatchSpool {
  const pathOf = (batch: SpooledBatch) => join(dir, batch.spool_path ?? "");
  return {
    async open(batchId) {
      await mkdir(dir, { recursive: true });
      return fileWriter(dir, `${batchId}.parts`);
    },
    async missing(batch) {
      if (batch.spool_path !== null && (await exists(pathOf(batch)))) return undefined;
      return `the batch's spool ${batch.spool_path} is missing (is MIZAN_SPOOL_DIR shared by every node?)`;
    },
    read: (batch) =>
      batch.spool_path?.endsWith(".ndjson") ? readLegacyLines(pathOf(batch)) : readParts(pathOf(batch)),
    async remove(batch) {
      if (batch.spool_path !== null) await rm(pathOf(batch), { force: true });
    },
  };
}
