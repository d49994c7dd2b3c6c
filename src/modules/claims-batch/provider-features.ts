import { providerFeatureColumns } from "../../engine/fwa/columns/columnar.js";
import type { ProviderFeatureTable } from "../../engine/fwa/stats/provider-features.js";
import type { ColumnarBatchView } from "../../engine/fwa/types.js";
import { startThreadBeside } from "../../platform/threads.js";

/**
 * The largest batch whose table is computed beside the detectors: the thread's copy of the columns and the
 * batch's strings, and the table's working arrays, are held while the detectors hold theirs. A larger batch
 * computes its table after the detectors, as a smaller one does on the analysis's thread, so its peak stays
 * what its own columns make it (1.4 GB at 10,000,000 items).
 */
export const FEATURES_THREAD_MAX_CLAIMS = 1_000_000;

/** a feature table on its way, and how to stop it when the analysis ends without it */
export interface ProviderFeaturesBeside {
  table: Promise<ProviderFeatureTable>;
  stop(): void;
}

/** the memory of each of the view's typed arrays: copies of their own, moved to the thread */
function buffersOf(view: ColumnarBatchView): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const value of Object.values(view))
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer && value.byteLength > 0)
      buffers.push(value.buffer);
  return buffers;
}

/**
 * The batch's provider feature table (engine/fwa/stats/provider-features.ts), computed in a thread of its own
 * (provider-features-thread.ts) from copies of the columns it reads. Started before the detectors, which run
 * on the analysis's thread alone with the other core idle; computed after them, the table was a third of
 * the providers' ranking, which shares the cores with the result pages.
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
