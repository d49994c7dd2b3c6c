import { type Logger, pino } from "pino";
import type { Config } from "./config.js";
import { jobDefinitions } from "./jobs.js";
import { startEmbeddedMaintenance } from "./platform/db/maintenance.js";
import { migrate } from "./platform/db/migrate.js";
import { openDatabase } from "./platform/db/open.js";
import { createJobRunner } from "./platform/jobs/queue.js";
import { logSerializers, prettyOnTerminal } from "./platform/logging.js";

export interface RunningWorker {
  log: Logger;
  close(): Promise<void>;
}

/**
 * `mizan worker`: background jobs only (bulk imports now; webhook deliveries and batches later). Any
 * number of these may run against one PostgreSQL beside API nodes started with MIZAN_WORKERS=0.
 */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const log = pino({ level: config.logLevel, serializers: logSerializers, ...prettyOnTerminal() });
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const jobs = createJobRunner({
      db,
      databaseUrl: config.databaseUrl,
      // MIZAN_WORKERS=0 makes API-only nodes; a worker process always works
      concurrency: Math.max(1, config.workers),
      definitions: jobDefinitions(config),
      schema: config.jobsSchema,
    });
    await jobs.start(log);
    const stopMaintenance = await startEmbeddedMaintenance(db, log);
    log.info({ database: db.kind, concurrency: Math.max(1, config.workers) }, "mizan worker is running");
    let closing: Promise<void> | undefined;
    return {
      log,
      close: () => {
        closing ??= (async () => {
          await stopMaintenance();
          await jobs.stop();
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
