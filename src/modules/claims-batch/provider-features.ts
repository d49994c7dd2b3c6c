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

/**
 * The columns as copies of their own, and their memory: the copies are moved to the thread, not copied again
 * (a view's whole buffer would be, the builder's spare room with it), and the batch keeps its columns.
 */
function copiesOf(columns: ProviderFeatureColumns): {
  copies: ProviderFeatureColumns;
  buffers: ArrayBuffer[];
} {
  const copies = {
    ...columns,
    memberId: columns.memberId.slice(),
    providerId: columns.providerId.slice(),
    claimDate: columns.claimDate.slice(),
    admissionDate: columns.admissionDate.slice(),
    dischargeDate: columns.dischargeDate.slice(),
    memberDob: columns.memberDob.slice(),
    claimSubType: columns.claimSubType.slice(),
    primaryDiagnosis: columns.primaryDiagnosis.slice(),
    firstSecondary: columns.firstSecondary.slice(),
    secondaryDiagnoses: columns.secondaryDiagnoses.slice(),
    firstItem: columns.firstItem.slice(),
    categoryOf: columns.categoryOf.slice(),
  };
  const buffers: ArrayBuffer[] = [];
  for (const value of Object.values(copies))
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.push(value.buffer);
  return { copies, buffers };
}

/**
 * The batch's provider feature table (engine/fwa/stats/provider-features.ts), computed in a thread of its own
 * (provider-features-thread.ts) from a copy of the columns it reads. Started before the detectors, which
 * run on the analysis's thread alone with the other core idle; computed after them, the table was a third
 * of the providers' ranking, which shares the cores with the result pages.
 */
export function providerFeaturesBeside(view: ColumnarBatchView): ProviderFeaturesBeside {
  const { copies, buffers } = copiesOf(providerFeatureColumns(view));
  const thread = startThreadBeside(import.meta.url, "provider-features-thread", undefined);
  thread.postMessage(copies, buffers);
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
