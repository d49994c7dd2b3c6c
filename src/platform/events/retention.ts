import type { Db } from "../db/db.js";
import { purgeInBatches, purgeJob } from "../jobs/housekeeping.js";
import type { JobDefinition } from "../jobs/queue.js";

/** rows one purge transaction deletes at most, so a large backlog never holds the database long */
const PURGE_BATCH = 5_000;

/**
 * Deletes settled deliveries (with their attempts) and then events that no delivery refers to, all
 * created before `cutoff`. Pending deliveries and their events stay whatever their age. The audit log
 * is not touched: it is never purged.
 */
export async function purgeSettledEvents(
  db: Db,
  cutoff: Date,
): Promise<{ deliveries: number; events: number }> {
  const deliveries = await purgeInBatches(db, PURGE_BATCH, async (tx, size) => {
    const ids = (
      await tx.query<{ id: number }>(
        `SELECT id FROM event_deliveries WHERE status <> 'pending' AND created_at < $1 ORDER BY created_at LIMIT $2`,
        [cutoff, size],
      )
    ).map((row) => row.id);
    if (ids.length === 0) return 0;
    await tx.query(`DELETE FROM event_delivery_attempts WHERE delivery_id = ANY($1::bigint[])`, [ids]);
    await tx.query(`DELETE FROM event_deliveries WHERE id = ANY($1::bigint[])`, [ids]);
    return ids.length;
  });
  const events = await purgeInBatches(db, PURGE_BATCH, async (tx, size) => {
    const purged = await tx.query(
      `DELETE FROM events WHERE id IN (
         SELECT e.id FROM events e WHERE e.created_at < $1
           AND NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_id = e.id)
         LIMIT $2)
       RETURNING id`,
      [cutoff, size],
    );
    return purged.length;
  });
  return { deliveries, events };
}

/** every hour, what is older than the retention period (MIZAN_EVENT_RETENTION_DAYS) goes */
export function eventRetentionJob(retentionDays: number): JobDefinition<Record<string, never>> {
  return purgeJob("event-retention", "17 * * * *", async (context) => {
    const cutoff = new Date(Date.now() - retentionDays * 86_400_000);
    const purged = await purgeSettledEvents(context.db, cutoff);
    if (purged.deliveries + purged.events > 0)
      context.log.info({ ...purged, cutoff }, "purged settled events");
  });
}
