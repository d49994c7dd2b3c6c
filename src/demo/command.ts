import type { FastifyBaseLogger } from "fastify";
import { pino } from "pino";
import type { Config } from "../config.js";
import { jobDefinitions } from "../jobs.js";
import type { Tenant } from "../modules/tenants/repo.js";
import type { Db } from "../platform/db/db.js";
import { migrate } from "../platform/db/migrate.js";
import { openDatabase } from "../platform/db/open.js";
import { createJobRunner, type JobQueue } from "../platform/jobs/queue.js";
import { logSerializers, prettyOnTerminal } from "../platform/logging.js";
import { describeDemo, ensureDemoTenant, seedDemo } from "./seed.js";

/**
 * `mizan demo [--tenant NAME]`: the demo data in the configured database, with a job runner of its own so
 * the claims batch is analysed before the command ends. Answers what to print.
 */
export async function demoCommand(config: Config, tenantName: string): Promise<string> {
  // the jobs' progress lines at info would bury the report; LOG_LEVEL=debug still shows everything
  const level = config.logLevel === "info" ? "warn" : config.logLevel;
  const log = pino({ level, serializers: logSerializers, ...prettyOnTerminal() });
  const db = await openDatabase(config);
  try {
    await migrate(db);
    return await withJobRunner(config, db, log, async (jobs) => {
      const { tenant, credentials } = await ensureDemoTenant(db, tenantName);
      const deps = { db, jobs, batches: config.batches, log, waitForBatch: true };
      const report = await seedDemo(deps, tenant, credentials);
      // MIZAN_API_KEY is the bootstrap tenant's key: the curl can name it
      const knownKey = tenantName === config.bootstrap.tenant ? config.bootstrap.apiKey : undefined;
      return describeDemo(report, config.publicUrl, knownKey);
    });
  } finally {
    await db.close();
  }
}

async function withJobRunner<T>(
  config: Config,
  db: Db,
  log: pino.Logger,
  work: (jobs: JobQueue) => Promise<T>,
): Promise<T> {
  const runner = createJobRunner({
    db,
    databaseUrl: config.databaseUrl,
    concurrency: 1,
    definitions: jobDefinitions(config),
    pollingIntervalSeconds: 0.5,
    schema: config.jobsSchema,
  });
  await runner.start(log);
  try {
    return await work(runner.queue);
  } finally {
    await runner.stop();
  }
}

/**
 * MIZAN_DEMO=1: `serve` fills its bootstrap tenant before it listens; its own workers analyse the batch
 * (an API-only node, MIZAN_WORKERS=0, leaves that to `mizan worker` and does not wait).
 */
export async function seedAtStart(
  config: Config,
  services: { db: Db; jobs: JobQueue; log: FastifyBaseLogger },
  tenant: Tenant,
  apiKey: string | undefined,
  out: NodeJS.WritableStream,
): Promise<void> {
  const deps = { ...services, batches: config.batches, waitForBatch: config.workers > 0 };
  const report = await seedDemo(deps, tenant);
  out.write(`\n${describeDemo(report, config.publicUrl, apiKey ?? config.bootstrap.apiKey)}\n`);
}
