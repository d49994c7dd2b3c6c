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
  /**
   * As send, on a queue whose definition has `coalesce`: unless a job of `key` already waits there, in
   * which case this one is that job (it reads the state when it starts). Answers whether a job was added.
   */
  sendCoalesced(
    tx: Queryable,
    queue: string,
    data: object,
    key: string,
    options?: SendOptions,
  ): Promise<boolean>;
}

export interface SendOptions {
  /** not before this time (a retry's backoff) */
  startAfter?: Date;
  /** the job's group (a tenant): a pooled queue runs at most `perGroup` jobs of one group at once */
  group?: string;
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
  /**
   * At most one job per key waits and one runs (pg-boss's `stately` policy), for sendCoalesced. Fixed
   * when the queue is first created: a queue made without it keeps its policy, so such a queue gets a new name.
   */
  coalesce?: boolean;
  /** a cron expression (UTC): pg-boss sends the job on that schedule, once per tick across all nodes */
  schedule?: string;
  /**
   * Seconds between this queue's idle polls, instead of the runner's: a poll is a claim statement on the
   * one database a create waits behind, so a queue whose jobs may start late (an hourly purge) polls rarely.
   */
  idlePollSeconds?: number;
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
  /**
   * Jobs that wait on others' servers: instead of batches that end together, one loop claims jobs as
   * slots free (`slots` per unit of concurrency) and settles each on its own, and at most `perGroup`
   * jobs of one group (SendOptions.group) are active at once across every node, so one group's slow
   * jobs hold its own slots only. `orderOf` still runs the jobs of one key claimed together in order.
   */
  pool?: { slots: number; perGroup: number };
  /**
   * A job sent is started at once by a free worker of any node (a NOTIFY as its transaction commits), not
   * at the worker's next poll: for jobs whose start a client waits for (a batch's analysis, a webhook's
   * delivery). Queues of one job at a time or pooled (no `batchSize`); a job sent to start later is not
   * announced.
   */
  startsAtOnce?: boolean;
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

interface Pool {
  /** claims at once, if it was waiting for its next poll */
  wake(): void;
  stop(timeoutMs: number): Promise<void>;
}

/** jobs claimed together, in lanes: one lane per `orderOf` key in position order, one per other job */
function lanesOf(definition: JobDefinition<object>, jobs: JobWithMetadata<object>[]) {
  const lanes = new Map<string, { position: number; job: JobWithMetadata<object> }[]>();
  jobs.forEach((job, index) => {
    const order = definition.orderOf?.(job.data) ?? { key: `#${index}`, position: 0 };
    const lane = lanes.get(order.key) ?? [];
    lane.push({ position: order.position, job });
    lanes.set(order.key, lane);
  });
  return [...lanes.values()].map((lane) =>
    lane.sort((a, b) => a.position - b.position).map((entry) => entry.job),
  );
}

/** the channel on which a sent job of a `startsAtOnce` queue is announced, as "<schema>.<queue>" */
const STARTS_AT_ONCE_CHANNEL = "mizan_job_sent";

/**
 * One process announces a queue's jobs at most this often in their transactions (and again later where it held
 * some back): a worker woken by one claims what has committed meanwhile, and claims again as
 * each job ends. Under a flood of jobs (hundreds of webhook events a second) a NOTIFY for each cost about a
 * tenth of the throughput.
 */
const ANNOUNCE_EVERY_MS = 50;

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

/** the embedded databases of this process whose jobs left active by an earlier process were retried */
const databasesResumed = new WeakSet<Db>();

/**
 * The embedded database serves one process, so a job still active as its runner starts was claimed by the
 * process before it, which stopped mid-job (killed, or its machine down): it is failed now, so that its retry
 * starts after the queue's retry delay instead of once its heartbeat has been missing for heartbeatSeconds
 * and supervision noticed (40 s and more for a batch). Only the first runner started on the database does
 * so: a later one in the same process (a test's second worker) would take its sibling's jobs. On PostgreSQL
 * another process may be running it: only the heartbeat can tell.
 */
async function retryJobsOfAnEarlierLife(boss: PgBoss, db: Db, schema: string, log: FastifyBaseLogger) {
  if (db.jobsDatabase === undefined || databasesResumed.has(db)) return;
  databasesResumed.add(db);
  const { rows } = await db.jobsDatabase.executeSql(
    `SELECT name, id FROM ${schema}.job WHERE state = 'active' ORDER BY name`,
  );
  const idsByQueue = new Map<string, string[]>();
  for (const row of rows as { name: string; id: string }[]) {
    const ids = idsByQueue.get(row.name) ?? [];
    ids.push(row.id);
    idsByQueue.set(row.name, ids);
  }
  for (const [queue, ids] of idsByQueue) {
    log.warn({ queue, jobs: ids.length }, "jobs cut short when the service last stopped are retried");
    await boss.fail(queue, ids, { message: "the service stopped while the job ran" });
  }
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
  const startsAtOnce = new Set(options.definitions.filter((d) => d.startsAtOnce).map((d) => d.queue));
  /** how this process wakes its worker of each startsAtOnce queue, by the announcement of its jobs ("<schema>.<queue>") */
  const wakeable = new Map<string, () => void>();
  const announcementOf = (queue: string) => `${options.schema}.${queue}`;
  /** wakes the workers of `queue` on every node, once `on`'s transaction (if any) commits */
  const announce = (on: Queryable, queue: string) =>
    on.query("SELECT pg_notify($1, $2)", [STARTS_AT_ONCE_CHANNEL, announcementOf(queue)]);
  const lastAnnounced = new Map<string, number>();
  const pendingLater = new Set<string>();
  const laterTimers = new Set<NodeJS.Timeout>();
  /**
   * Jobs sent within ANNOUNCE_EVERY_MS of an announced one are announced again, outside their transactions,
   * that long and ten times that long after: the worker the first woke may have claimed before they
   * committed, and would have left them to the next poll (a transaction still open half a second after its
   * send waits for it yet)
   */
  const announceLater = (queue: string) => {
    if (pendingLater.has(queue)) return;
    pendingLater.add(queue);
    for (const delay of [ANNOUNCE_EVERY_MS, 10 * ANNOUNCE_EVERY_MS]) {
      const timer = setTimeout(() => {
        laterTimers.delete(timer);
        if (delay === ANNOUNCE_EVERY_MS) pendingLater.delete(queue);
        announce(db, queue).catch(() => {});
      }, delay).unref();
      laterTimers.add(timer);
    }
  };
  /** whether a job sent now to `queue` is announced in its transaction */
  const announces = (queue: string, sendOptions: SendOptions): boolean => {
    if (!startsAtOnce.has(queue) || sendOptions.startAfter !== undefined) return false;
    const now = Date.now();
    if (now - (lastAnnounced.get(queue) ?? 0) < ANNOUNCE_EVERY_MS) {
      announceLater(queue);
      return false;
    }
    lastAnnounced.set(queue, now);
    return true;
  };
  let stopListening: (() => Promise<void>) | undefined;

  const queue: JobQueue = {
    async send(tx, name, data, sendOptions = {}) {
      const { group, ...rest } = sendOptions;
      const id = await boss.send(name, data, {
        db: inTransaction(tx),
        ...rest,
        ...(group === undefined ? {} : { group: { id: group } }),
      });
      if (id === null) throw new Error(`job queue ${name} refused a job`);
      if (announces(name, sendOptions)) await announce(tx, name);
      return id;
    },
    async sendCoalesced(tx, name, data, key, sendOptions = {}) {
      // the stately policy's unique index drops the insert while a job of the key waits: null
      const { startAfter } = sendOptions;
      const id = await boss.send(name, data, { db: inTransaction(tx), startAfter, singletonKey: key });
      return id !== null;
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
    const results: JobResult[] = [];
    await Promise.all(
      lanesOf(definition, jobs).map(async (lane) => {
        for (const job of lane) {
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

  const pools: Pool[] = [];
  const pollSecondsOf = (definition: JobDefinition<object>) =>
    definition.idlePollSeconds ?? options.pollingIntervalSeconds ?? 1;

  /**
   * A pooled queue's loop: claims up to the free slots (groups at their limit left out by the claim
   * itself), runs each lane of what it claimed, settles every job as it ends, and claims again at once
   * while claims find work or a slot frees; otherwise it polls.
   */
  function startPool(
    definition: JobDefinition<object>,
    { slots, perGroup }: { slots: number; perGroup: number },
    log: FastifyBaseLogger,
  ): Pool {
    const capacity = slots * options.concurrency;
    const pollMs = pollSecondsOf(definition) * 1000;
    const held = new Map<string, JobWithMetadata<object>>();
    const lanes = new Set<Promise<void>>();
    const stopped = new AbortController();
    let stopping = false;
    let endNap: (() => void) | undefined;
    // roused while not napping (a job ended or was announced during a claim that may have missed it): the
    // next nap is skipped
    let roused = false;
    const nap = (ms: number) =>
      new Promise<void>((resolve) => {
        if (roused) {
          roused = false;
          resolve();
          return;
        }
        const timer = setTimeout(() => endNap?.(), ms);
        endNap = () => {
          clearTimeout(timer);
          endNap = undefined;
          resolve();
        };
      });
    /** the pool claims again at once: a slot freed, a job was announced, or the pool stops */
    const rouse = () => {
      if (endNap === undefined) roused = true;
      else endNap();
    };
    // claims are kept alive as pg-boss's own workers keep theirs
    const heartbeat = setInterval(() => {
      if (held.size > 0)
        boss.touch(definition.queue, [...held.values()]).catch((error: unknown) => {
          log.error({ err: error, queue: definition.queue }, "job heartbeat failed");
        });
    }, definition.heartbeatSeconds * 500);

    async function settle(job: JobWithMetadata<object>) {
      try {
        await run(definition, job, log);
        await boss.complete(definition.queue, job);
      } catch (error) {
        await boss.fail(definition.queue, job, { message: String(error) }).catch((failure: unknown) => {
          log.error({ err: failure, queue: definition.queue }, "job could not be marked failed");
        });
      } finally {
        held.delete(job.id);
        rouse();
      }
    }

    async function claim(): Promise<number> {
      const free = capacity - held.size;
      if (free <= 0) return 0;
      try {
        const jobs = await boss.fetch<object>(definition.queue, {
          batchSize: free,
          includeMetadata: true,
          groupConcurrency: perGroup,
        });
        for (const job of jobs) {
          held.set(job.id, job);
          (job as { signal: AbortSignal }).signal = stopped.signal;
        }
        for (const lane of lanesOf(definition, jobs)) {
          const running = (async () => {
            for (const job of lane) await settle(job);
          })();
          lanes.add(running);
          void running.finally(() => lanes.delete(running));
        }
        return jobs.length;
      } catch (error) {
        log.error({ err: error, queue: definition.queue }, "job queue error");
        return 0;
      }
    }

    const loop = (async () => {
      while (!stopping) {
        const claimed = await claim();
        if (stopping) break;
        if (claimed === 0 || held.size >= capacity) await nap(pollMs);
      }
    })();

    return {
      wake: rouse,
      async stop(timeoutMs) {
        stopping = true;
        rouse();
        await loop;
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
        await Promise.race([Promise.allSettled([...lanes]), deadline]);
        stopped.abort();
        clearInterval(heartbeat);
      },
    };
  }

  async function work(definition: JobDefinition<object>, log: FastifyBaseLogger) {
    if (definition.pool !== undefined) {
      const pool = startPool(definition, definition.pool, log);
      pools.push(pool);
      if (definition.startsAtOnce) wakeable.set(announcementOf(definition.queue), pool.wake);
      return;
    }
    const polling = {
      includeMetadata: true,
      localConcurrency: options.concurrency,
      pollingIntervalSeconds: pollSecondsOf(definition),
    } as const;
    const batchSize = definition.batchSize ?? 1;
    if (batchSize === 1) {
      const worker = await boss.work(
        definition.queue,
        { ...polling, batchSize: 1 },
        async ([job]: JobWithMetadata<object>[]) => {
          if (job !== undefined) await run(definition, job, log);
        },
      );
      if (definition.startsAtOnce)
        wakeable.set(announcementOf(definition.queue), () => boss.notifyWorker(worker));
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
      await retryJobsOfAnEarlierLife(boss, db, options.schema, log);
      for (const definition of options.definitions as readonly JobDefinition<object>[]) {
        await boss.createQueue(definition.queue, {
          retryLimit: definition.retryLimit,
          retryDelay: definition.retryDelaySeconds ?? 5,
          retryBackoff: true,
          retryDelayMax: 300,
          heartbeatSeconds: definition.heartbeatSeconds,
          expireInSeconds: 6 * 3600,
          ...(definition.coalesce ? { policy: "stately" } : {}),
        });
        await warmQueueCache(boss, definition.queue);
        if (definition.schedule !== undefined) await boss.schedule(definition.queue, definition.schedule);
        if (options.concurrency > 0) await work(definition, log);
      }
      if (wakeable.size > 0)
        // another deployment's announcements (another schema) find no worker here
        stopListening = await db.listen(STARTS_AT_ONCE_CHANNEL, (payload) => wakeable.get(payload)?.());
    },
    async stop() {
      if (!started) return;
      started = false;
      for (const timer of laterTimers) clearTimeout(timer);
      laterTimers.clear();
      pendingLater.clear();
      await stopListening?.();
      stopListening = undefined;
      wakeable.clear();
      // pooled jobs end (or are left to pg-boss's supervision) before pg-boss stops under them
      await Promise.all(pools.splice(0).map((pool) => pool.stop(20_000)));
      await boss.stop({ graceful: true, timeout: 20_000, close: db.jobsDatabase === undefined });
    },
  };
}
