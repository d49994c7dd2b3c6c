import { Worker } from "node:worker_threads";
import type { LabelledExample } from "../../engine/fwa/model/provider-model.js";
import type { TenantFit } from "../../engine/fwa/model/tenant-model.js";

/** a fit that ran past MIZAN_MODEL_TRAINING_TIMEOUT_MS: stopped, and not retried (it would take as long) */
export class TrainingTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the model's fit ran past ${timeoutMs} ms and was stopped`);
    this.name = "TrainingTimeout";
  }
}

/** the thread beside this file: built, or from the sources through tsx (tests, benchmarks) */
function startThread(examples: LabelledExample[]): Worker {
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./fit-thread.js", import.meta.url), { workerData: { examples } });
  // a thread does not inherit tsx's loader: it registers it before it loads the fit
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const fit = JSON.stringify(new URL("./fit-thread.ts", import.meta.url).href);
  return new Worker(`import(${tsx}).then((api) => { api.register(); return import(${fit}); })`, {
    eval: true,
    execArgv: [],
    workerData: { examples },
  });
}

/**
 * Fits and validates the model in a thread, stopped when `timeoutMs` passes (TrainingTimeout) or when
 * `signal` aborts (the worker stops: the job is run again).
 */
export function fitInThread(
  examples: LabelledExample[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<TenantFit> {
  return new Promise((resolve, reject) => {
    const thread = startThread(examples);
    let settled = false;
    const settle = (error: Error | undefined, value?: TenantFit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      void thread.terminate();
      if (error !== undefined) reject(error);
      else if (value !== undefined) resolve(value);
    };
    const timer = setTimeout(() => settle(new TrainingTimeout(timeoutMs)), timeoutMs);
    const stop = () => settle(new Error("the worker stopped; the model is fitted again"));
    if (signal.aborted) stop();
    signal.addEventListener("abort", stop);
    thread.on("message", (value: TenantFit) => settle(undefined, value));
    thread.on("error", (error) => settle(error));
    thread.on("exit", (code) => settle(new Error(`the model's fit thread stopped (exit code ${code})`)));
  });
}
