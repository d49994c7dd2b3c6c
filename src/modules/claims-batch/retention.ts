import { purgeJob } from "../../platform/jobs/housekeeping.js";
import { batchRepo } from "./repo.js";

/** every hour, the results of batches past their results_available_until go (the batch's record stays) */
export const batchResultsRetentionJob = purgeJob("claims-batch-retention", "41 * * * *", async (context) => {
  const purged = await batchRepo.purgeExpiredResults(context.db, new Date());
  if (purged > 0) context.log.info({ batches: purged }, "purged the results of expired batches");
});
