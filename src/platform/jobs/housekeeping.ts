/**
 * Housekeeping jobs (retention purges): scheduled, idempotent, and never worth more than a retry or two,
 * since the next run does whatever this one could not.
 */
import type { Db, Queryable } from "../db/db.js";
import type { JobContext, JobDefinition } from "./queue.js";

const PURGE_POLL_SECONDS = 60;

/**
 * A job that runs `purge` on a cron `schedule`; a run that fails is left to the next one. Its queue polls
 * once a minute: a purge that starts a minute late loses nothing, and six purge queues polling every second
 * cost the embedded database's one session some 12 ms a second, in bursts a create waited behind.
 */
export function purgeJob(
  queue: string,
  schedule: string,
  purge: (context: JobContext) => Promise<void>,
): JobDefinition<Record<string, never>> {
  return {
    queue,
    schedule,
    idlePollSeconds: PURGE_POLL_SECONDS,
    retryLimit: 2,
    heartbeatSeconds: 60,
    handle: (_data, context) => purge(context),
    async giveUp() {
      // the next scheduled run purges what this one could not
    },
  };
}

/**
 * Runs `step` (one transaction that deletes at most `size` rows and answers how many) until a step deletes
 * fewer, so a large backlog never holds the database long; answers the rows deleted in all.
 */
export async function purgeInBatches(
  db: Db,
  size: number,
  step: (tx: Queryable, size: number) => Promise<number>,
): Promise<number> {
  let purged = 0;
  for (;;) {
    const count = await db.transaction((tx) => step(tx, size));
    purged += count;
    if (count < size) return purged;
  }
}
