import { type App, buildApp } from "./app.js";
import type { Config } from "./config.js";
import { seedAtStart } from "./demo/command.js";
import { jobDefinitions } from "./jobs.js";
import { ensureBootstrapTenant } from "./modules/tenants/service.js";
import type { Db } from "./platform/db/db.js";
import { startEmbeddedMaintenance } from "./platform/db/maintenance.js";
import { migrate } from "./platform/db/migrate.js";
import { openDatabase } from "./platform/db/open.js";
import { createJobRunner } from "./platform/jobs/queue.js";

/** how long in-flight requests get to finish after SIGTERM before the process gives up on them */
const DRAIN_TIMEOUT_MS = 25_000;

export interface RunningServer {
  app: App;
  db: Db;
  url: string;
  close(): Promise<void>;
}

/** opens and migrates the database, makes the bootstrap tenant, and listens: what `mizan serve` runs */
export async function startServer(
  config: Config,
  out: NodeJS.WritableStream = process.stdout,
): Promise<RunningServer> {
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const bootstrap = await ensureBootstrapTenant(db, config.bootstrap);
    printGeneratedCredentials(out, bootstrap.tenant.name, bootstrap.generated);
    const jobs = createJobRunner({
      db,
      databaseUrl: config.databaseUrl,
      concurrency: config.workers,
      definitions: jobDefinitions(config),
      schema: config.jobsSchema,
    });
    const app = await buildApp(config, db, jobs.queue);
    await jobs.start(app.log);
    const stopMaintenance = await startEmbeddedMaintenance(db, app.log);
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        await stopMaintenance();
        await app.close();
        await jobs.stop();
        await db.close();
      })();
      return closing;
    };
    if (config.demo)
      // before listening: once the service answers, the demo is there
      await seedAtStart(
        config,
        { db, jobs: jobs.queue, log: app.log },
        bootstrap.tenant,
        bootstrap.generated.apiKey,
        out,
      ).catch(async (error) => {
        await close();
        throw error;
      });
    const url = await app.listen({ port: config.port, host: config.host });
    app.log.info(
      {
        tenant: bootstrap.tenant.name,
        mode: bootstrap.tenant.mode,
        database: db.kind,
        workers: config.workers,
      },
      "mizan is serving",
    );
    return { app, db, url, close };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

/** Secrets generated at this start are shown here once (not through the logger), then exist only hashed. */
function printGeneratedCredentials(
  out: NodeJS.WritableStream,
  tenant: string,
  generated: { apiKey?: string; clientId?: string; clientSecret?: string },
): void {
  const lines: string[] = [];
  if (generated.apiKey) lines.push(`  access-key:    ${generated.apiKey}`);
  if (generated.clientId)
    lines.push(`  client_id:     ${generated.clientId}`, `  client_secret: ${generated.clientSecret}`);
  if (lines.length === 0) return;
  out.write(
    `\nGenerated credentials of tenant "${tenant}" (shown once; only their hashes are stored):\n${lines.join("\n")}\n\n`,
  );
}

interface SignalLog {
  info(details: object, message: string): void;
  error(details: object | string, message?: string): void;
}

/**
 * SIGTERM and SIGINT stop taking work, let work in flight finish (requests, a job's current chunk),
 * close the database, and exit; after DRAIN_TIMEOUT_MS the process gives up and exits 1. The signals are
 * trapped before the process starts (call this first): one that arrives while it starts is kept, and the
 * drain begins as soon as `attach` hands over what is running, instead of the signal killing the process
 * half-started.
 */
export function trapSignals(): (running: { close(): Promise<void> }, log: SignalLog) => void {
  let received: string | undefined;
  let stop: ((signal: string) => void) | undefined;
  const on = (signal: string) => {
    if (stop === undefined) received ??= signal;
    else stop(signal);
  };
  process.once("SIGTERM", () => on("SIGTERM"));
  process.once("SIGINT", () => on("SIGINT"));
  return (running, log) => {
    stop = (signal: string) => {
      log.info({ signal }, "draining work in flight before exit");
      const timer = setTimeout(() => {
        log.error("drain timed out; exiting");
        process.exit(1);
      }, DRAIN_TIMEOUT_MS);
      timer.unref();
      running.close().then(
        () => process.exit(0),
        (error) => {
          log.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    };
    if (received !== undefined) stop(received);
  };
}
