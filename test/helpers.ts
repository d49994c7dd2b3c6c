import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { type App, buildApp } from "../src/app.js";
import { type Config, loadConfig } from "../src/config.js";
import { jobDefinitions } from "../src/jobs.js";
import { createTenant } from "../src/modules/tenants/service.js";
import { listAuditForEntity } from "../src/platform/audit/audit.js";
import type { Db } from "../src/platform/db/db.js";
import { migrate } from "../src/platform/db/migrate.js";
import { openDatabase } from "../src/platform/db/open.js";
import { createJobRunner, type JobQueue } from "../src/platform/jobs/queue.js";

/** PostgreSQL when TEST_DATABASE_URL is set (CI runs the suite on both), otherwise in-memory PGlite */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export async function openTestDb(): Promise<Db> {
  // PGlite starts from the migrated template when a test process has left one
  const template = TEST_DATABASE_URL === undefined ? migratedTemplatePath() : undefined;
  const startFrom = template !== undefined && existsSync(template) ? readFileSync(template) : undefined;
  const db = await openDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: undefined, startFrom });
  await migrate(db); // from a template, its migrations recorded: nothing to run
  if (template !== undefined && startFrom === undefined) await saveTemplate(db, template);
  return db;
}

/**
 * Where the test processes keep a migrated embedded database to start from (creating one takes PGlite
 * seconds of initdb; one restored from a snapshot, a fraction of a second): named by the migrations, the
 * database's thread (which takes the snapshot) and PGlite's version, so a change to any makes a new one
 */
function migratedTemplatePath(): string {
  if (templatePath !== undefined) return templatePath;
  const hash = createHash("sha256");
  const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  const migrations = source("../src/platform/db/migrations/");
  for (const file of readdirSync(migrations).sort())
    hash.update(file).update(readFileSync(join(migrations, file)));
  hash.update(readFileSync(source("../src/platform/db/pglite-host.ts")));
  hash.update(readFileSync(source("../node_modules/@electric-sql/pglite/package.json")));
  templatePath = join(tmpdir(), `${TEMPLATE_PREFIX}${hash.digest("hex").slice(0, 16)}.tar`);
  return templatePath;
}

const TEMPLATE_PREFIX = "mizan-test-db-";
/** the template's path, hashed once a process */
let templatePath: string | undefined;

/**
 * Written beside and renamed, so a process reading it never finds it half-written; a template is only a
 * shortcut, so failing to keep one fails no test
 */
async function saveTemplate(db: Db, path: string): Promise<void> {
  try {
    const snapshot = await db.snapshot?.();
    if (snapshot === undefined) return;
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, snapshot);
    renameSync(partial, path);
    // the templates of earlier migrations go (some 40 MB each); this one's, and those being written, stay
    for (const file of readdirSync(tmpdir()))
      if (file.startsWith(TEMPLATE_PREFIX) && !file.startsWith(basename(path)))
        rmSync(join(tmpdir(), file), { force: true });
  } catch {}
}

/** a tenant name no other test (or test process sharing the PostgreSQL) uses */
export function uniqueName(prefix = "t"): string {
  return `${prefix}-${randomUUID().slice(0, 12)}`;
}

/**
 * What every test process and every process a test starts runs with: short webhook retries (200 ms
 * doubling, given up after 3 s) and timeouts (1.5 s), and webhook targets on loopback allowed (the test
 * receivers listen there; tests of the address policy set MIZAN_WEBHOOK_ALLOW_PRIVATE to ""). On PostgreSQL, test processes share one database:
 * each keeps its jobs in a schema of its own (named by its pid, and inherited by the servers it starts),
 * so no process works another's jobs with settings the other did not choose; scripts/run-tests.mjs drops
 * these schemas after the run.
 */
export const TEST_ENV: Record<string, string> = {
  MIZAN_JOBS_SCHEMA: `pgboss_test_${process.pid}`,
  LOG_LEVEL: "silent",
  MIZAN_RATE_LIMIT: "0",
  MIZAN_WEBHOOK_TIMEOUT_MS: "1500",
  MIZAN_WEBHOOK_RETRY_FIRST_MS: "200",
  MIZAN_WEBHOOK_RETRY_WINDOW_S: "3",
  MIZAN_WEBHOOK_ALLOW_PRIVATE: "127.0.0.0/8,::1/128",
  // spool files outside the checkout
  MIZAN_SPOOL_DIR: join(tmpdir(), "mizan-test-spool"),
};

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...TEST_ENV, ...overrides });
}

export interface TenantClient {
  name: string;
  id: number;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  /** a request under this tenant's base_url with its access-key */
  call(method: InjectOptions["method"], path: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

export interface TestContext {
  app: App;
  db: Db;
  /** the app's job queue */
  jobs: JobQueue;
  tenant: TenantClient;
  newTenant(mode?: "standard" | "lightweight"): Promise<TenantClient>;
  close(): Promise<void>;
}

/** a logger that drops everything, for jobs and workers run directly by tests */
export const silentLog = { info() {}, warn() {}, error() {}, child: () => silentLog } as never;

/** a job queue that is never started, for apps whose tests enqueue nothing */
export function idleJobQueue(db: Db): JobQueue {
  return createJobRunner({
    db,
    databaseUrl: TEST_DATABASE_URL,
    concurrency: 0,
    definitions: [],
    schema: TEST_ENV.MIZAN_JOBS_SCHEMA as string,
  }).queue;
}

/**
 * The app on a fresh test database, with the real job queue working every job (`workers` at a time, 0
 * to only enqueue), polling twice a second so tests wait little.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { workers?: number } = {},
): Promise<TestContext> {
  const db = await openTestDb();
  const config = testConfig(env);
  const jobs = createJobRunner({
    db,
    databaseUrl: TEST_DATABASE_URL,
    concurrency: options.workers ?? 1,
    definitions: jobDefinitions(config),
    pollingIntervalSeconds: 0.5,
    schema: config.jobsSchema,
  });
  const app = await buildApp(config, db, jobs.queue);
  await jobs.start(app.log);
  await app.ready();
  const newTenant = async (mode: "standard" | "lightweight" = "standard"): Promise<TenantClient> => {
    const created = await createTenant(
      db,
      { tenantId: undefined, actor: "test", requestId: undefined },
      {
        name: uniqueName(),
        mode,
      },
    );
    const name = created.tenant.name;
    return {
      name,
      id: created.tenant.id,
      apiKey: created.apiKey,
      clientId: created.clientId,
      clientSecret: created.clientSecret,
      call: (method, path, payload) =>
        app.inject({
          method,
          url: `/${name}/v4.0/health${path}`,
          headers: { "access-key": created.apiKey },
          ...(payload === undefined ? {} : { payload: payload as InjectOptions["payload"] }),
        }),
    };
  };
  const tenant = await newTenant();
  return {
    app,
    db,
    jobs: jobs.queue,
    tenant,
    newTenant,
    close: async () => {
      await app.close();
      await jobs.stop();
      await db.close();
    },
  };
}

/** the actions the audit log holds for one entity of a tenant, oldest first */
export async function auditActions(
  db: Db,
  tenantId: number,
  entityType: string,
  entityKey: string,
): Promise<string[]> {
  return (await listAuditForEntity(db, tenantId, entityType, entityKey)).map((row) => row.action);
}

/**
 * The test app with workers off, and a database that stands for another node listening for its
 * announcements: on PostgreSQL another connection pool, on PGlite the one database. `close` ends both.
 */
export async function startAppWithListener(): Promise<{
  ctx: TestContext;
  listener: Db;
  close(): Promise<void>;
}> {
  const ctx = await startTestApp({}, { workers: 0 });
  const listener = TEST_DATABASE_URL ? await openTestDb() : ctx.db;
  return {
    ctx,
    listener,
    close: async () => {
      if (listener !== ctx.db) await listener.close();
      await ctx.close();
    },
  };
}
