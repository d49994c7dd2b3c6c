/**
 * A batch's provider feature table computed in a thread of its own (provider-features.ts starts it) while
 * the analysis's thread runs the detectors: it reads only the columns it is sent.
 */
import { parentPort } from "node:worker_threads";
import { providerFeatureTable } from "../../engine/fwa/stats/provider-features.js";
import type { ColumnarBatchView } from "../../engine/fwa/types.js";

if (parentPort === null) throw new Error("provider-features-thread runs as a worker thread");
const port = parentPort;
port.once("message", (columns: ColumnarBatchView) => port.postMessage(providerFeatureTable(columns)));
