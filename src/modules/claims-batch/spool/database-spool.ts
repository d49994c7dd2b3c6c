import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import type { Db } from "../../../platform/db/db.js";
import type { BatchClaimInput } from "../claim.js";
import { spoolPartsRepo } from "../repo.js";
import { claimsOfLines } from "./lines.js";
import type { BatchSpool, SpooledBatch, SpoolWriter } from "./spool.js";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** a part holds at most this many bytes of lines (or one claim, when a claim alone is larger) */
export const SPOOL_PART_BYTES = 4 * 1024 ** 2;

const LINE_END = Buffer.from("\n");

/**
 * An upload's lines cut into parts as they come, each part compressed (zlib's thread pool, beside the
 * parsing) and inserted in order: at most two parts wait at a time, so memory stays a few parts whatever
 * the batch's size.
 */
class PartWriter implements SpoolWriter {
  private lines: Buffer[] = [];
  private bytes = 0;
  private parts = 0;
  private waiting = 0;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly db: Db,
    private readonly batchId: string,
  ) {}

  append(line: Buffer): void {
    if (this.bytes > 0 && this.bytes + line.length + 1 > SPOOL_PART_BYTES) this.seal();
    this.lines.push(line, LINE_END);
    this.bytes += line.length + 1;
  }

  async ready(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (this.waiting > 1) await this.writing;
  }

  async finish() {
    if (this.bytes > 0) this.seal();
    await this.writing;
    return { spool_path: null, spool_parts: this.parts };
  }

  async abort(): Promise<void> {
    this.lines = [];
    this.bytes = 0;
    await this.writing.catch(() => {});
    // what cannot be removed now the retention purges (claims-batch/retention.ts)
    await spoolPartsRepo.remove(this.db, this.batchId).catch(() => {});
  }

  /** the lines so far become the next part, compressed at once and inserted after the parts before it */
  private seal(): void {
    const part = {
      batchId: this.batchId,
      part: ++this.parts,
      claims: this.lines.length / 2,
      bytes: this.bytes,
    };
    const compressed = gzipAsync(Buffer.concat(this.lines, this.bytes), { level: 1 });
    compressed.catch(() => {}); // surfaced by the insert that awaits it
    this.lines = [];
    this.bytes = 0;
    this.waiting++;
    this.writing = this.writing
      .then(async () => spoolPartsRepo.insert(this.db, { ...part, data: await compressed }))
      .finally(() => this.waiting--);
    this.writing.catch((error: unknown) => {
      this.failure ??= error;
    });
  }
}

/** one part's lines, decompressed; a part not there is a missing spool */
async function partLines(db: Db, batch: SpooledBatch, part: number): Promise<Buffer> {
  const data = await spoolPartsRepo.read(db, batch.id, part);
  if (data === undefined)
    throw new Error(
      `part ${part} of the batch's ${batch.spool_parts} spool parts is missing from the database`,
    );
  return gunzipAsync(data);
}

/** the batch's claims part by part, the next part fetched while this one is parsed */
async function* readParts(db: Db, batch: SpooledBatch): AsyncGenerator<BatchClaimInput> {
  const parts = batch.spool_parts ?? 0;
  let next = parts > 0 ? partLines(db, batch, 1) : undefined;
  for (let part = 1; next !== undefined; part++) {
    const lines = await next;
    next = part < parts ? partLines(db, batch, part + 1) : undefined;
    next?.catch(() => {}); // awaited above on the next turn, unless the reader stopped
    yield* claimsOfLines(lines);
  }
}

/**
 * The spool in the database (claims_batch_spool_parts): the lines in compressed parts of bounded size,
 * written as the upload streams, read part by part by whichever worker takes the batch, so nodes need no
 * shared volume.
 */
export function databaseSpool(db: Db): BatchSpool {
  return {
    open: async (batchId) => new PartWriter(db, batchId),
    async missing(batch) {
      const found = await spoolPartsRepo.count(db, batch.id);
      if (found === batch.spool_parts) return undefined;
      return `the batch's spool is missing: ${found} of its ${batch.spool_parts} parts are in the database`;
    },
    read: (batch) => readParts(db, batch),
    remove: (batch) => spoolPartsRepo.remove(db, batch.id),
  };
}
