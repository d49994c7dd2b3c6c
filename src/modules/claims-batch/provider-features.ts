import {
  type ProviderFeatureColumns,
  type ProviderFeatureTable,
  providerFeatureColumns,
} from "../../engine/fwa/stats/provider-features.js";
import type { ColumnarBatchView } from "../../engine/fwa/types.js";
import { startThreadBeside } from "../../platform/threads.js";

/**
 * The largest batch whose table is computed beside the detectors: the thread's copy of the columns and its
 * working arrays are some 140 bytes a claim, held while the detectors hold theirs. At 2,500,000 claims
 * (10,000,000 items) they took the node's peak from 1,405 to 1,625 MB; a larger batch computes its table
 * after the detectors, as a smaller one does on the analysis's thread, so the peak stays what the batch's
 * own columns make it.
 */
export const FEATURES_THREAD_MAX_CLAIMS = 1_000_000;

/** a feature table on its way, and how to stop it when the analysis ends without it */
export interface ProviderFeaturesBeside {
  table: Promise<ProviderFeatureTable>;
  stop(): void;
}

/** the memory of each column the table reads: the copies are moved to the thread, not copied again */
function buffersOf(columns: ProviderFeatureColumns): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const value of Object.values(columns))
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.push(value.buffer);
  return buffers;
}

/**
 * The batch's provider feature table (engine/fwa/stats/provider-features.ts), computed in a thread of its own
 * (provider-features-thread.ts) from a copy of the columns it reads. Started before the detectors, which
 * run on the analysis's thread alone with the other core idle; computed after them, the table was a third
 * of the providers' ranking, which shares the cores with the result pages.
 */
export function providerFeaturesBeside(view: ColumnarBatchView): ProviderFeaturesBeside {
  const columns = providerFeatureColumns(view);
  const thread = startThreadBeside(import.meta.url, "provider-features-thread", undefined);
  thread.postMessage(columns, buffersOf(columns));
  const table = new Promise<ProviderFeatureTable>((resolve, reject) => {
    thread.once("message", resolve);
    thread.once("error", reject);
    thread.once("exit", (code) =>
      reject(new Error(`the provider features' thread stopped (exit code ${code})`)),
    );
  }).finally(() => void thread.terminate());
  // awaited after the detectors: a failure before then (the analysis stopped) is the analysis's, not unhandled
  table.catch(() => {});
  return { table, stop: () => void thread.terminate() };
}
