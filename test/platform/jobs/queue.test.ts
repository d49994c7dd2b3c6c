import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "../../../src/platform/db/db.js";
import { openPglite } from "../../../src/platform/db/pglite.js";
import { createJobRunner, type JobDefinition } from "../../../src/platform/jobs/queue.js";
import { openTestDb, silentLog, TEST_DATABASE_URL, TEST_ENV, uniqueName } from "../../helpers.js";

/** how a startDelay's queue is defined and worked */
interface StartCase {
  startsAtOnce: boolean;
  pool?: JobDefinition<object>["pool"];
  /** jobs sent, each in a transaction of its own, one after another */
  jobs?: number;
  /** those after the first commit this long after their send */
  holdMs?: number;
  /** the workers' polling interval (default 30 s) */
  runnerPollSeconds?: number;
  /** the queue's own (JobDefinition.idlePollSeconds) */
  idlePollSeconds?: number;
}

/** polls `done` every 50 ms until it holds or `ms` have passed */
async function waitFor(done: () => boolean, ms: number): Promise<void> {
  for (let waited = 0; !done() && waited < ms; waited += 50) await sleep(50);
}

/** How long after their sends the last job of a queue so defined starts; undefined when one did not start in 5 s */
async function startDelay({
  startsAtOnce,
  pool,
  jobs = 1,
  holdMs = 0,
  runnerPollSeconds = 30,
  idlePollSeconds,
}: StartCase): Promise<number | undefined> {
  const db = await openTestDb();
  const startedAt: number[] = [];
  const definition: JobDefinition<object> = {
    queue: uniqueName("starts").replace(/-/g, "_"),
    retryLimit: 0,
    heartbeatSeconds: 30,
    startsAtOnce,
    ...(pool === undefined ? {} : { pool }),
    ...(idlePollSeconds === undefined ? {} : { idlePollSeconds }),
    handle: async () => {
      startedAt.push(Date.now());
    },
    giveUp: async () => {},
  };
  const runner = createJobRunner({
    db,
    databaseUrl: TEST_DATABASE_URL,
    concurrency: 1,
    definitions: [definition],
    pollingIntervalSeconds: runnerPollSeconds,
    schema: TEST_ENV.MIZAN_JOBS_SCHEMA as string,
  });
  await runner.start(silentLog);
  try {
    await sleep(1_000); // the worker's first poll, as it starts, has found nothing
    const sent = Date.now();
    for (let job = 0; job < jobs; job += 1)
      await db.transaction(async (tx) => {
        await runner.queue.send(tx, definition.queue, {});
        if (job > 0) await sleep(holdMs);
      });
    await waitFor(() => startedAt.length >= jobs, 5_000);
    return startedAt.length < jobs ? undefined : Math.max(...startedAt) - sent;
  } finally {
    await runner.stop();
    await db.close();
  }
}

describe("the job queue", () => {
  it("starts a job of a startsAtOnce queue as its transaction commits, not at the next poll", async () => {
    const delay = await startDelay({ startsAtOnce: true });
    assert.ok(delay !== undefined && delay < 2_000, `started after ${delay} ms`);
  });

  it("leaves a job of another queue to the next poll", async () => {
    assert.equal(
      await startDelay({ startsAtOnce: false }),
      undefined,
      "not started within 5 s by workers polling every 30 s",
    );
  });

  it("starts a job of a pooled startsAtOnce queue (webhook deliveries) as its transaction commits", async () => {
    const delay = await startDelay({ startsAtOnce: true, pool: { slots: 2, perGroup: 1 } });
    assert.ok(delay !== undefined && delay < 2_000, `started after ${delay} ms`);
  });

  it("starts jobs sent together at once, though only the first is announced", async () => {
    const delay = await startDelay({ startsAtOnce: true, pool: { slots: 2, perGroup: 5 }, jobs: 5 });
    assert.ok(delay !== undefined && delay < 2_000, `the last started after ${delay} ms`);
  });

  it("starts a job held back from announcement whose transaction commits after the woken worker claimed", async () => {
    // the second job is sent within the first's announcement window and commits 200 ms later, when the
    // worker the first woke has run it and claimed again (on PostgreSQL; PGlite's one session waits)
    const delay = await startDelay({
      startsAtOnce: true,
      pool: { slots: 2, perGroup: 5 },
      jobs: 2,
      holdMs: 200,
    });
    assert.ok(delay !== undefined && delay < 2_000, `the last started after ${delay} ms`);
  });

  it("leaves a job of another pooled queue to the next poll", async () => {
    const delay = await startDelay({ startsAtOnce: false, pool: { slots: 2, perGroup: 1 } });
    assert.equal(delay, undefined, "not started within 5 s by a pool polling every 30 s");
  });
  it("polls a queue at its own idle interval instead of the workers'", async () => {
    const everyHalfSecond = await startDelay({ startsAtOnce: false, runnerPollSeconds: 0.5 });
    assert.ok(
      everyHalfSecond !== undefined && everyHalfSecond < 2_000,
      `started after ${everyHalfSecond} ms`,
    );
    const own = { startsAtOnce: false, runnerPollSeconds: 0.5, idlePollSeconds: 30 };
    assert.equal(await startDelay(own), undefined, "not started within 5 s: its queue polls every 30 s");
    assert.equal(
      await startDelay({ ...own, pool: { slots: 2, perGroup: 1 } }),
      undefined,
      "nor on a pooled queue",
    );
  });
});

const embeddedOnly =
  TEST_DATABASE_URL === undefined
    ? false
    : "PostgreSQL may have another process running the job: only its heartbeat tells";

describe("the job queue on the embedded database, started again", { skip: embeddedOnly }, () => {
  const define = (queue: string, handle: JobDefinition<object>["handle"]): JobDefinition<object> => ({
    queue,
    retryLimit: 2,
    retryDelaySeconds: 1,
    heartbeatSeconds: 30,
    handle,
    giveUp: async () => {},
  });
  const runnerOn = (db: Db, definition: JobDefinition<object>) =>
    createJobRunner({
      db,
      databaseUrl: undefined,
      concurrency: 1,
      definitions: [definition],
      pollingIntervalSeconds: 0.5,
      schema: TEST_ENV.MIZAN_JOBS_SCHEMA as string,
    });
  /** a handler that records the attempt of each start */
  const recording = () => {
    const attempts: number[] = [];
    const handle = async (_data: object, context: { attempt: number }) => {
      attempts.push(context.attempt);
    };
    return { handle, attempts };
  };
  /** a runner on `db` whose job (sent) has started and runs until released */
  const runningEndlessJob = async (db: Db, queue: string) => {
    let release = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    let signal = () => {};
    const started = new Promise<void>((resolve) => {
      signal = resolve;
    });
    const runner = runnerOn(
      db,
      define(queue, async () => {
        signal();
        await running;
      }),
    );
    await runner.start(silentLog);
    await db.transaction((tx) => runner.queue.send(tx, queue, { n: 1 }));
    await started;
    return { runner, release: () => release() };
  };

  it("retries at once a job its earlier life left running, not after its heartbeat", async () => {
    const queue = uniqueName("orphan").replace(/-/g, "_");
    // the first life: its job starts and never ends; the database's files as they are then are what a
    // process killed at that moment leaves behind
    const first = await openTestDb();
    const firstLife = await runningEndlessJob(first, queue);
    let leftBehind: Uint8Array | undefined;
    try {
      leftBehind = await first.snapshot?.();
    } finally {
      firstLife.release();
      await firstLife.runner.stop();
      await first.close();
    }
    assert.ok(leftBehind !== undefined, "the embedded database takes snapshots");

    // the next life, on those files
    const second = await openPglite(undefined, leftBehind);
    const again = recording();
    const secondRunner = runnerOn(second, define(queue, again.handle));
    const startedAt = Date.now();
    await secondRunner.start(silentLog);
    try {
      await waitFor(() => again.attempts.length > 0, 10_000);
      assert.deepEqual(again.attempts, [1], "the job ran again, as its second attempt");
      assert.ok(Date.now() - startedAt < 10_000, `retried ${Date.now() - startedAt} ms after the start`);
    } finally {
      await secondRunner.stop();
      await second.close();
    }
  });

  it("leaves alone the job a runner of the same process is running", async () => {
    const queue = uniqueName("sibling").replace(/-/g, "_");
    const db = await openTestDb();
    const first = await runningEndlessJob(db, queue);
    const other = recording();
    const secondRunner = runnerOn(db, define(queue, other.handle));
    try {
      await secondRunner.start(silentLog);
      // a retry taken from the first runner would start on the second within its 1 s delay and a poll
      await waitFor(() => other.attempts.length > 0, 4_000);
      assert.deepEqual(other.attempts, [], "the second runner did not take the first one's job");
    } finally {
      first.release();
      await secondRunner.stop();
      await first.runner.stop();
      await db.close();
    }
  });
});
