import type { LabelledExample } from "../../engine/fwa/model/provider-model.js";
import type { TenantFit } from "../../engine/fwa/model/tenant-model.js";
import { startThreadBeside } from "../../platform/threads.js";

/** a fit that ran past MIZAN_MODEL_TRAINING_TIMEOUT_MS: stopped, and not retried (it would take as long) */
export class TrainingTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the model's fit ran past ${timeoutMs} ms and was stopped`);
    this.name = "TrainingTimeout";
  }
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
    const thread = startThreadBeside(import.meta.url, "fit-thread", { examples });
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
