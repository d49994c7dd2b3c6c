import type { Db } from "../../platform/db/db.js";
import { purgeInBatches, purgeJob } from "../../platform/jobs/housekeeping.js";

/** how long a processed message's answer is kept for resends: NPHIES resends within hours, not weeks */
export const MESSAGE_RETENTION_DAYS = 30;
const PURGE_BATCH = 1_000;

/** forgets the answers of messages older than the retention (their requests stay, as every request does) */
export function purgeProcessedMessages(db: Db, now: Date): Promise<number> {
  return purgeInBatches(db, PURGE_BATCH, async (tx, size) => {
    const rows = await tx.query<{ message_id: string }>(
      `DELETE FROM fhir_messages WHERE ctid IN (
         SELECT ctid FROM fhir_messages WHERE created_at < $1::timestamptz - make_interval(days => $2)
         ORDER BY created_at LIMIT $3)
       RETURNING message_id`,
      [now, MESSAGE_RETENTION_DAYS, size],
    );
    return rows.length;
  });
}

/** every hour */
export const fhirMessageRetentionJob = purgeJob("fhir-message-retention", "29 * * * *", async (context) => {
  const purged = await purgeProcessedMessages(context.db, new Date());
  if (purged > 0) context.log.info({ purged }, "forgot processed FHIR messages past their retention");
});
