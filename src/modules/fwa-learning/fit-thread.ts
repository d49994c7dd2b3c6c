/**
 * The fit of one tenant's model, in a thread of its own (fit.ts starts it): the fit is CPU-bound, so only
 * a thread can be stopped when it runs past its time, and the worker's event loop keeps its heartbeats.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { LabelledExample } from "../../engine/fwa/model/provider-model.js";
import { fitTenantModel } from "../../engine/fwa/model/tenant-model.js";

const examples = (workerData as { examples: LabelledExample[] }).examples;
parentPort?.postMessage(fitTenantModel(examples));
