import { purgeJob } from "../../platform/jobs/housekeeping.js";
import { batchRepo, spoolPartsRepo } from "./repo.js";

/**
 * Every hour, the results of batches past their results_available_until go (the batch's record stays),
 * and so do database spool parts nobody will read (the analysis removes its batch's own when it ends).
 */
export const batchResultsRetentionJob = purgeJob("claims-batch-retention", "41 * * * *", async (context) => {
  const now = new Date();
  const purged = await batchRepo.purgeExpiredResults(context.db, now);
  if (purged > 0) context.log.info({ batches: purged }, "purged the results of expired batches");
  const parts = await spoolPartsRepo.purgeLeftovers(context.db, now);
  if (parts > 0) context.log.info({ parts }, "purged spool parts left behind");
});
