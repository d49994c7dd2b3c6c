import type { FwaLearningSettings } from "../../config.js";
import { publicFailure } from "../../platform/jobs/failure.js";
import { purgeJob } from "../../platform/jobs/housekeeping.js";
import type { JobContext, JobDefinition } from "../../platform/jobs/queue.js";
import { TrainingTimeout } from "./fit.js";
import { learningRepo } from "./repo.js";
import { requestTraining, TRAINING_QUEUE, type TrainingJobData, trainModel } from "./training.js";

/** the model's message says the code and the reference; the log has the error under that reference */
async function recordFailed(data: TrainingJobData, error: unknown, context: JobContext, code: string) {
  const failure = publicFailure(context.log, error, code, "The model's training", { tenant: data.tenantId });
  await learningRepo.recordFailure(context.db, data.tenantId, `${failure.code}: ${failure.message}`);
}

/**
 * Fits a tenant's model when outcomes arrived; a fit reads every outcome there is, so none is lost. At
 * most one waits per tenant (coalesce); a fit past its time is stopped and reported, not retried.
 */
export function modelTrainingJob(settings: FwaLearningSettings): JobDefinition<TrainingJobData> {
  return {
    queue: TRAINING_QUEUE,
    coalesce: true,
    retryLimit: 3,
    heartbeatSeconds: 30,
    async handle(data, context) {
      const options = { timeoutMs: settings.trainingTimeoutMs, signal: context.signal };
      try {
        await trainModel(context.db, context.jobs, data.tenantId, options);
      } catch (error) {
        // the same outcomes would take as long again: reported now, not retried
        if (!(error instanceof TrainingTimeout)) throw error;
        await recordFailed(data, error, context, "MODEL_TRAINING_TIMEOUT");
      }
    },
    giveUp: (data, error, context) => recordFailed(data, error, context, "MODEL_TRAINING_FAILED"),
  };
}

/** jobs an earlier version left on the old queue (one per post): forwarded, coalesced, to the new one */
export const legacyTrainingJob: JobDefinition<TrainingJobData> = {
  queue: "fwa-model-training",
  retryLimit: 3,
  heartbeatSeconds: 30,
  handle: (data, context) =>
    context.db.transaction((tx) => requestTraining(tx, context.jobs, data.tenantId, data.requestId)),
  giveUp: (data, error, context) => recordFailed(data, error, context, "MODEL_TRAINING_FAILED"),
};

/** every hour, the provider features of batches whose results are gone go too (outcomes keep their own) */
export const providerFeaturesRetentionJob = purgeJob(
  "fwa-features-retention",
  "43 * * * *",
  async (context) => {
    const purged = await learningRepo.purgeExpiredFeatures(context.db, new Date());
    if (purged > 0)
      context.log.info({ providers: purged }, "purged the provider features of expired batches");
  },
);
