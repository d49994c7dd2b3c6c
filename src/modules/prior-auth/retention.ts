import type { Db } from "../../platform/db/db.js";
import { purgeInBatches, purgeJob } from "../../platform/jobs/housekeeping.js";

/** requests one purge transaction deletes at most */
const PURGE_BATCH = 1_000;

/**
 * Lightweight mode keeps request data only as long as the tenant's retention setting says (default 30
 * days, `lightweight_retention_days`): older lightweight requests go with their items, history,
 * supporting info and communications. The audit log stays; standard-mode requests are never purged here.
 */
export function purgeLightweightRequests(db: Db, now: Date): Promise<number> {
  return purgeInBatches(db, PURGE_BATCH, async (tx, size) => {
    const ids = (
      await tx.query<{ id: number }>(
        `SELECT pa.id FROM prior_authorizations pa LEFT JOIN tenant_settings s ON s.tenant_id = pa.tenant_id
         WHERE pa.mode = 'lightweight'
           AND pa.created_at < $1::timestamptz - make_interval(days => COALESCE(s.lightweight_retention_days, 30))
         ORDER BY pa.created_at LIMIT $2`,
        [now, size],
      )
    ).map((row) => row.id);
    if (ids.length === 0) return 0;
    for (const table of [
      "prior_authorization_items",
      "prior_authorization_history",
      "supporting_info",
      "communications",
    ])
      await tx.query(`DELETE FROM ${table} WHERE prior_authorization_id = ANY($1::int[])`, [ids]);
    await tx.query("DELETE FROM prior_authorizations WHERE id = ANY($1::int[])", [ids]);
    return ids.length;
  });
}

/** every hour */
export const lightweightRetentionJob = purgeJob("lightweight-retention", "23 * * * *", async (context) => {
  const purged = await purgeLightweightRequests(context.db, new Date());
  if (purged > 0) context.log.info({ purged }, "purged lightweight requests past their retention");
});
