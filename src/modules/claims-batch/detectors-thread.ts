/**
 * Some of the analysis's detectors, run in a thread of their own over the batch's columns in shared memory
 * (detector-runs.ts starts it), while the analysis's thread runs the others: each told back as a report of
 * its findings, in the order it told them.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type DetectorReport, reportOf } from "../../engine/fwa/analyze.js";
import { FWA_DETECTORS } from "../../engine/fwa/registry.js";
import type { ColumnarBatchView } from "../../engine/fwa/types.js";

export interface DetectorsThreadData {
  view: ColumnarBatchView;
  /** the detectors to run here, by name */
  names: string[];
}

export type DetectorsThreadAnswer = { reports: DetectorReport[] } | { error: string };

const { view, names } = workerData as DetectorsThreadData;
let answer: DetectorsThreadAnswer;
try {
  answer = { reports: FWA_DETECTORS.filter((d) => names.includes(d.name)).map((d) => reportOf(view, d)) };
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
// the reports' own arrays move rather than copy
const moved =
  "reports" in answer
    ? answer.reports.flatMap((r) => [r.calls.buffer, r.indexes.buffer, r.scores.buffer])
    : [];
parentPort?.postMessage(answer, moved as ArrayBuffer[]);
