/**
 * Training a tenant's model from its outcomes, on the job runner (`mizan worker`, or an API node with
 * workers): outcome posts only ask for it, and every ask made while one waits is that one.
 */
import type { LabelledExample } from "../../engine/fwa/model/provider-model.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { fitInThread } from "./fit.js";
import { learningRepo } from "./repo.js";

/** a new queue (the old `fwa-model-training` ran one job per post): pg-boss keeps a queue's first policy */
export const TRAINING_QUEUE = "fwa-model-fit";

/** a fit starts this long after the first ask, so a burst of posts is one fit */
export const TRAINING_DEBOUNCE_MS = 1_000;

/** a model is fitted from this many outcomes, with at least MIN_PER_CLASS of each verdict */
export const MIN_EXAMPLES = 30;
export const MIN_PER_CLASS = 8;
/** a fitted model ranks providers only when its held-out ROC-AUC reaches this: else the unsupervised score stands */
export const MIN_VALIDATION_AUC = 0.6;

export interface TrainingJobData {
  tenantId: number;
  requestId?: string;
}

/**
 * Asks for a fit of the tenant's model in the caller's transaction: the job exists when the outcomes
 * commit. While one waits, nothing is added (it reads every outcome when it starts).
 */
export async function requestTraining(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  requestId: string | undefined,
): Promise<void> {
  await learningRepo.markTraining(tx, tenantId);
  await sendFit(tx, jobs, { tenantId, requestId }, new Date(Date.now() + TRAINING_DEBOUNCE_MS));
}

/** the tenant's fit job; its one key makes every ask while one waits that one */
async function sendFit(tx: Queryable, jobs: JobQueue, data: TrainingJobData, startAfter?: Date) {
  await jobs.sendCoalesced(tx, TRAINING_QUEUE, data, `tenant-${data.tenantId}`, { startAfter });
}

/**
 * Fits the tenant's model on every outcome it has, or says why it cannot; the fit runs in a thread,
 * stopped after `timeoutMs` (TrainingTimeout). When outcomes arrived during the fit, another is asked for.
 */
export async function trainModel(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<void> {
  const read = await db.transaction((tx) => learningRepo.examplesForFit(tx, tenantId));
  if (read === undefined) return;
  const examples: LabelledExample[] = read.examples.map((row) => ({
    features: row.features,
    fraud: row.fraud,
    provider: row.provider_id,
  }));
  const positives = examples.filter((e) => e.fraud).length;
  const negatives = examples.length - positives;
  let fit: Parameters<typeof learningRepo.recordFit>[3];
  if (examples.length < MIN_EXAMPLES || positives < MIN_PER_CLASS || negatives < MIN_PER_CLASS) {
    fit = {
      model: null,
      validation: null,
      examples: examples.length,
      positives,
      message: `a model needs ${MIN_EXAMPLES} outcomes with ${MIN_PER_CLASS} of each verdict; there are ${examples.length} (${positives} fraud, ${negatives} not): the unsupervised score stands`,
    };
  } else {
    const { model, validation } = await fitInThread(examples, options.timeoutMs, options.signal);
    fit = {
      model,
      validation,
      examples: examples.length,
      positives,
      message:
        validation.roc_auc >= MIN_VALIDATION_AUC
          ? null
          : `held-out ROC-AUC ${validation.roc_auc.toFixed(3)} is below ${MIN_VALIDATION_AUC}: the unsupervised score stands`,
    };
  }
  await db.transaction(async (tx) => {
    const status = await learningRepo.recordFit(tx, tenantId, read.readAt, fit);
    // outcomes committed after the read: they need a fit of their own
    if (status === "training") await sendFit(tx, jobs, { tenantId });
  });
}
