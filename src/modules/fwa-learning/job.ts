import { purgeJob } from "../../platform/jobs/housekeeping.js";
import type { JobDefinition } from "../../platform/jobs/queue.js";
import { learningRepo } from "./repo.js";
import { TRAINING_QUEUE, trainModel } from "./service.js";

/** fits a tenant's model when outcomes arrived; a fit reads every outcome there is, so none is lost */
export const modelTrainingJob: JobDefinition<{ tenantId: number }> = {
  queue: TRAINING_QUEUE,
  retryLimit: 3,
  heartbeatSeconds: 30,
  handle: (data, context) => trainModel(context.db, data.tenantId),
  async giveUp(data, error, context) {
    context.log.error({ err: error, tenant: data.tenantId }, "the FWA model could not be fitted");
    await learningRepo.recordFailure(
      context.db,
      data.tenantId,
      error instanceof Error ? error.message : String(error),
    );
  },
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
