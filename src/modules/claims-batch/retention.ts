import type { JobDefinition } from "../../platform/jobs/queue.js";
import { batchRepo } from "./repo.js";

/** every hour, the results of batches past their results_available_until go (the batch's record stays) */
export const batchResultsRetentionJob: JobDefinition<Record<string, never>> = {
  queue: "claims-batch-retention",
  schedule: "41 * * * *",
  retryLimit: 2,
  heartbeatSeconds: 60,
  async handle(_data, context) {
    const purged = await batchRepo.purgeExpiredResults(context.db, new Date());
    if (purged > 0) context.log.info({ batches: purged }, "purged the results of expired batches");
  },
  async giveUp() {
    // the next hour's run purges what this one could not
  },
};
