/**
 * The detectors of a batch's analysis, split over two threads: the heaviest that share no grouping with the
 * rest run in a thread of their own (detectors-thread.ts) over the columns in shared memory, while this
 * thread runs the others; the analysis replays every report in the registry's order, so its decisions are
 * the same as one thread's (engine/fwa/analyze.ts).
 */
import { analyzeBatch, type DetectorReport, type DetectorRun, reportOf } from "../../engine/fwa/analyze.js";
import { FWA_DETECTORS } from "../../engine/fwa/registry.js";
import type { BatchDecisions, ColumnarBatchView } from "../../engine/fwa/types.js";
import { startThreadBeside } from "../../platform/threads.js";
import type { DetectorsThreadAnswer, DetectorsThreadData } from "./detectors-thread.js";

/**
 * run beside the others: together some 40 % of the detectors' time (the exact duplicates' table, the
 * services' price and quantity fits), and the items by service code their only grouping
 */
const THREAD_DETECTORS: readonly string[] = ["exact-duplicate", "price-outlier", "quantity-outlier"];

/**
 * The reports of the detectors `names` (THREAD_DETECTORS), from a thread over `view`: its columns in shared
 * memory (or copied), the claim ids (in the duplicates' causes) copied to their size, and none of what the
 * results alone read, which stays whole for the result pages' thread to take (result-writer.ts). Rejects
 * when a detector fails there or the thread stops.
 */
export function reportsFromThread(
  view: ColumnarBatchView,
  names: readonly string[] = THREAD_DETECTORS,
): Promise<DetectorReport[]> {
  const claimIds = {
    count: view.claimIds.count,
    offsets: view.claimIds.offsets.slice(),
    bytes: view.claimIds.bytes.slice(),
  };
  // no detector of the thread's reads the erp item ids
  const none = { count: 0, offsets: new Int32Array(1), bytes: new Uint8Array(0) };
  const data: DetectorsThreadData = {
    view: { ...view, claimIds, erpItemIds: none, itemErpId: new Int32Array(0) },
    names: [...names],
  };
  const moved = [claimIds.offsets.buffer, claimIds.bytes.buffer];
  const thread = startThreadBeside(import.meta.url, "detectors-thread", data, moved);
  return new Promise<DetectorReport[]>((resolve, reject) => {
    thread.once("message", (answer: DetectorsThreadAnswer) => {
      if ("reports" in answer) resolve(answer.reports);
      else reject(new Error(`the detectors' thread failed: ${answer.error}`));
    });
    thread.once("error", reject);
    thread.once("exit", (code) => reject(new Error(`the detectors' thread stopped (exit code ${code})`)));
  }).finally(() => void thread.terminate());
}

/**
 * Every detector of FWA_DETECTORS run over `view`, in its order: each a report when `inThread` (some from
 * the thread), else the detectors themselves, which the analysis runs.
 */
async function detectorRuns(view: ColumnarBatchView, inThread: boolean): Promise<DetectorRun[]> {
  if (!inThread) return [...FWA_DETECTORS];
  const fromThread = reportsFromThread(view);
  // the thread's failure is told once this thread's detectors are done, not as an unhandled rejection
  fromThread.catch(() => {});
  const here = FWA_DETECTORS.filter((d) => !THREAD_DETECTORS.includes(d.name)).map((d) => reportOf(view, d));
  const reports = new Map([...here, ...(await fromThread)].map((report) => [report.name, report]));
  return FWA_DETECTORS.map((detector) => {
    const report = reports.get(detector.name);
    if (report === undefined) throw new Error(`no report of the detector ${detector.name}`);
    return report;
  });
}

/**
 * Pass two: every item of the view settled (analyzeBatch), its detectors split over two threads when
 * `inThread`. The detectors' groupings are kept per view object (stats/batch.ts): a view of their own, let
 * go on return, lets the groupings go before the result pages (some 200 MB at ten million items).
 */
export async function analyzeColumns(
  view: ColumnarBatchView,
  options: { flagThreshold: number; inThread: boolean },
): Promise<BatchDecisions> {
  const own = { ...view };
  const runs = await detectorRuns(own, options.inThread);
  return analyzeBatch(own, runs, { flagThreshold: options.flagThreshold });
}
