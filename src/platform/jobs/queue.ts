import type { FastifyBaseLogger } from "fastify";
import { type JobResult, type JobWithMetadata, PgBoss } from "pg-boss";
import type { Db, Queryable } from "../db/db.js";

/** Enqueues background work. */
export interface JobQueue {
  /**
   * `data.requestId`, when set, is the id of the request that asked for the job: the job's log lines
   * carry it as `reqId`, as the request's own lines do.
   *
   * Enqueues inside the caller's transaction: the job exists exactly when the change that asked for it
   * commits, so no change is left without its job and no job runs for a change that was rolled back.
   */
  send(tx: Queryable, queue: string, data: object, options?: SendOptions): Promise<string>;
}

export interface SendOptions {
  /** not before this time (a retry's backoff) */
  startAfter?: Date;
}

export interface JobContext {
  db: Db;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** 0 on the first attempt */
  attempt: number;
  /** aborted when the worker stops or the job's time is up: long jobs check it between steps */
  signal: AbortSignal;
}

export interface JobDefinition<T extends object = object> {
  queue: string;
  /** retries after the first attempt, spaced by exponential backoff */
  retryLimit: number;
  /**
   * A worker refreshes its claim this often (halved); a worker killed mid-job stops refreshing, and the
   * job is handed to the next worker after this many seconds without a heartbeat.
   */
  heartbeatSeconds: number;
  /** a cron expression (UTC): pg-boss sends the job on that schedule, once per tick across all nodes */
  schedule?: string;
  /** pg-boss's own backoff between retries starts at this many seconds (default 5) */
  retryDelaySeconds?: number;
  /**
   * Jobs one worker fetches and works at once (default 1). A full batch makes the worker fetch again at
   * once, so a backlog drains at full speed instead of one batch per polling interval.
   */
  batchSize?: number;
  /**
   * Jobs of a batch with the same key run one after another, in `position` order; other keys run
   * concurrently. Without it, a batch's jobs all run concurrently.
   */
  orderOf?(data: T): { key: string; position: number } | undefined;
  handle(data: T, context: JobContext): Promise<void>;
  /** called once, when the last attempt has failed: the job's own record must then say so */
  giveUp(data: T, error: unknown, context: JobContext): Promise<void>;
}

export interface JobRunner {
  /** usable once `start` has resolved */
  queue: JobQueue;
  /** installs or migrates pg-boss's schema, creates the queues and, unless concurrency is 0, works them */
  start(log: FastifyBaseLogger): Promise<void>;
  stop(): Promise<void>;
}

export interface JobOptions {
  db: Db;
  /** PostgreSQL: pg-boss keeps its own pool; unset: it shares the embedded database's one connection */
  databaseUrl: string | undefined;
  /** jobs each queue runs at once in this process; 0 only enqueues (an API-only node) */
  concurrency: number;
  definitions: readonly JobDefinition<never>[];
  /** seconds between idle polls for new jobs */
  pollingIntervalSeconds?: number;
  /** the schema of pg-boss's tables (config.jobsSchema) */
  schema: string;
}

function bossFor(db: Db, databaseUrl: string | undefined, schema: string): PgBoss {
  // supervision (which retries jobs whose worker stopped sending heartbeats) runs every 10 s
  const common = { schema, superviseIntervalSeconds: 10, monitorIntervalSeconds: 10 };
  if (db.jobsDatabase !== undefined) return new PgBoss({ ...common, db: db.jobsDatabase, backend: "pglite" });
  if (databaseUrl === undefined) throw new Error("the job queue needs DATABASE_URL or the embedded database");
  return new PgBoss({ ...common, connectionString: databaseUrl, max: 4 });
}

/**
 * pg-boss looks a queue up in its cache on every send and reads it on a miss through its own connection.
 * On the embedded database that connection is the one our transaction holds, so a miss inside a
 * transaction would wait for itself: the cache is filled for each queue at start, outside transactions.
 * (getBlockedKeys is the public call that fills it; it then refuses, as our queues are not key-ordered.)
 */
async function warmQueueCache(boss: PgBoss, queue: string): Promise<void> {
  await boss.getBlockedKeys(queue).catch(() => {});
}

/** pg-boss statements run through the caller's transaction */
function inTransaction(tx: Queryable) {
  return { executeSql: async (text: string, values?: unknown[]) => ({ rows: await tx.query(text, values) }) };
}

/**
 * pg-boss on the application's database (its tables live in their own schema, `pgboss` by default). Jobs are claimed with
 * SKIP LOCKED, so any number of processes may work the same queues against PostgreSQL.
 */
export function createJobRunner(options: JobOptions): JobRunner {
  const { db } = options;
  const boss = bossFor(db, options.databaseUrl, options.schema);
  let started = false;

  const queue: JobQueue = {
    async send(tx, name, data, sendOptions = {}) {
      const id = await boss.send(name, data, { db: inTransaction(tx), ...sendOptions });
      if (id === null) throw new Error(`job queue ${name} refused a job`);
      return id;
    },
  };

  function contextOf(job: JobWithMetadata<object>, log: FastifyBaseLogger): JobContext {
    return {
      db,
      jobs: queue,
      // the request that asked for the job, so its log lines join the request's
      log: log.child({ job: job.id, queue: job.name, reqId: (job.data as { requestId?: string }).requestId }),
      attempt: job.retryCount,
      signal: job.signal,
    };
  }

  /** one job's attempt; after its last attempt fails, the definition records that it gave up */
  async function run(
    definition: JobDefinition<object>,
    job: JobWithMetadata<object>,
    log: FastifyBaseLogger,
  ) {
    const context = contextOf(job, log);
    try {
      await definition.handle(job.data, context);
    } catch (error) {
      context.log.error({ err: error, attempt: job.retryCount }, "job attempt failed");
      if (job.retryCount >= job.retryLimit) await definition.giveUp(job.data, error, context);
      throw error;
    }
  }

  /** a batch's jobs, each settled on its own: one failing job is retried without its neighbours */
  async function runBatch(
    definition: JobDefinition<object>,
    jobs: JobWithMetadata<object>[],
    log: FastifyBaseLogger,
  ): Promise<JobResult[]> {
    const lanes = new Map<string, { position: number; job: JobWithMetadata<object> }[]>();
    jobs.forEach((job, index) => {
      const order = definition.orderOf?.(job.data) ?? { key: `#${index}`, position: 0 };
      const lane = lanes.get(order.key) ?? [];
      lane.push({ position: order.position, job });
      lanes.set(order.key, lane);
    });
    const results: JobResult[] = [];
    await Promise.all(
      [...lanes.values()].map(async (lane) => {
        for (const { job } of lane.sort((a, b) => a.position - b.position)) {
          try {
            await run(definition, job, log);
            results.push({ id: job.id, status: "completed" });
          } catch (error) {
            results.push({ id: job.id, status: "failed", output: { message: String(error) } });
          }
        }
      }),
    );
    return results;
  }

  async function work(definition: JobDefinition<object>, log: FastifyBaseLogger) {
    const polling = {
      includeMetadata: true,
      localConcurrency: options.concurrency,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    } as const;
    const batchSize = definition.batchSize ?? 1;
    if (batchSize === 1) {
      await boss.work(
        definition.queue,
        { ...polling, batchSize: 1 },
        async ([job]: JobWithMetadata<object>[]) => {
          if (job !== undefined) await run(definition, job, log);
        },
      );
      return;
    }
    await boss.work(
      definition.queue,
      { ...polling, batchSize, perJobResults: true, burstWhenBatchFull: true },
      (jobs: JobWithMetadata<object>[]) => runBatch(definition, jobs, log),
    );
  }

  return {
    queue,
    async start(log) {
      boss.on("error", (error) => log.error({ err: error }, "job queue error"));
      await boss.start();
      started = true;
      for (const definition of options.definitions as readonly JobDefinition<object>[]) {
        await boss.createQueue(definition.queue, {
          retryLimit: definition.retryLimit,
          retryDelay: definition.retryDelaySeconds ?? 5,
          retryBackoff: true,
          retryDelayMax: 300,
          heartbeatSeconds: definition.heartbeatSeconds,
          expireInSeconds: 6 * 3600,
        });
        await warmQueueCache(boss, definition.queue);
        if (definition.schedule !== undefined) await boss.schedule(definition.queue, definition.schedule);
        if (options.concurrency > 0) await work(definition, log);
      }
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 20_000, close: db.jobsDatabase === undefined });
    },
  };
}
