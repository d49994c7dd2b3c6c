import type { SpoolKind } from "../../../config.js";
import type { ColumnarBatchView } from "../../../engine/fwa/types.js";
import type { Db } from "../../../platform/db/db.js";
import type { BatchRow } from "../repo.js";
import { databaseSpool } from "./database-spool.js";
import { fileSpool } from "./file-spool.js";

/** where a batch's row finds its spool: a file (spool_path) or parts in the database (spool_parts) */
export type SpoolPlace = Pick<BatchRow, "spool_path" | "spool_parts">;

/** a batch whose spool is read or removed */
export type SpooledBatch = Pick<BatchRow, "id"> & SpoolPlace;

/** an upload's spool while the upload streams in: its claims in order, as parts of columns (columns/part.ts) */
export interface SpoolWriter {
  /** the next part, encoded, and how many claims it holds */
  append(part: Uint8Array, claims: number): void;
  /** resolves once more lines may be appended (the writer has caught up); rejects when writing failed */
  ready(): Promise<void>;
  /** every line written; answers where the batch's row finds them */
  finish(): Promise<SpoolPlace>;
  /** nothing of the spool stays, whether finished or not */
  abort(): Promise<void>;
}

/**
 * Where accepted batches wait for their analysis (README "Batch claims service"): the upload writes a
 * batch's claims as parts of columns (upload/claim-chunk.ts), the analysis reads the parts, and they go once the
 * batch is done.
 */
export interface BatchSpool {
  /** a writer for a new batch's claims */
  open(batchId: string): Promise<SpoolWriter>;
  /** why the batch's spool cannot be read in full, or undefined when it is all there */
  missing(batch: SpooledBatch): Promise<string | undefined>;
  /** the batch's parts in submission order, each a view of its claims' columns; each call reads afresh */
  read(batch: SpooledBatch): AsyncGenerator<ColumnarBatchView>;
  /** the batch's spool, gone (nothing to do when it is gone already) */
  remove(batch: SpooledBatch): Promise<void>;
}

/** what the spools are kept in: the database, and the file spool's directory */
export interface SpoolStores {
  db: Db;
  spoolDir: string;
}

/** the spool of that kind (MIZAN_BATCH_SPOOL), where uploads write */
export function spoolFor(kind: SpoolKind, stores: SpoolStores): BatchSpool {
  return kind === "database" ? databaseSpool(stores.db) : fileSpool(stores.spoolDir);
}

/** the spool a batch was written to, whatever this node's MIZAN_BATCH_SPOOL (a change leaves none behind) */
export function spoolOf(batch: SpoolPlace, stores: SpoolStores): BatchSpool {
  return spoolFor(batch.spool_parts === null ? "file" : "database", stores);
}

/** the batch's parts in submission order, from wherever its upload spooled them; each call reads afresh */
export function readSpool(batch: SpooledBatch, stores: SpoolStores): AsyncGenerator<ColumnarBatchView> {
  return spoolOf(batch, stores).read(batch);
}

/** the batch's spool, gone, wherever its upload spooled it */
export function removeSpool(batch: SpooledBatch, stores: SpoolStores): Promise<void> {
  return spoolOf(batch, stores).remove(batch);
}
