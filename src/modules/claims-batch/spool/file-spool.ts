import { createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { BatchClaimInput } from "../claim.js";
import { claimsOfStream } from "./lines.js";
import type { BatchSpool, SpooledBatch, SpoolWriter } from "./spool.js";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** a file's claims, one per line, in submission order */
const readLines = (path: string): AsyncGenerator<BatchClaimInput> =>
  claimsOfStream(createReadStream(path, { highWaterMark: 4 * 1024 * 1024 }));

/** the lines of one upload into `name` in the directory */
function fileWriter(dir: string, name: string): SpoolWriter {
  const path = join(dir, name);
  const stream = createWriteStream(path, { highWaterMark: 4 * 1024 * 1024 });
  const failed = new Promise<never>((_resolve, reject) => stream.once("error", reject));
  failed.catch(() => {}); // surfaced by ready() and finish()
  return {
    append(line) {
      stream.write(line);
      stream.write("\n");
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
 * The spool as one NDJSON file a batch in a directory (MIZAN_SPOOL_DIR): the fastest, for one node or
 * nodes that share the directory as one volume.
 */
export function fileSpool(dir: string): BatchSpool {
  const pathOf = (batch: SpooledBatch) => join(dir, batch.spool_path ?? "");
  return {
    async open(batchId) {
      await mkdir(dir, { recursive: true });
      return fileWriter(dir, `${batchId}.ndjson`);
    },
    async missing(batch) {
      if (batch.spool_path !== null && (await exists(pathOf(batch)))) return undefined;
      return `the batch's spool ${batch.spool_path} is missing (is MIZAN_SPOOL_DIR shared by every node?)`;
    },
    read: (batch) => readLines(pathOf(batch)),
    async remove(batch) {
      if (batch.spool_path !== null) await rm(pathOf(batch), { force: true });
    },
  };
}
