import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ConfigError, loadConfig } from "../../../src/config.js";
import { TENANT_FEATURES } from "../../../src/engine/fwa/model/tenant-model.js";
import { seededRandom } from "../../../src/engine/fwa/stats/random.js";
import { jobDefinitions } from "../../../src/jobs.js";
import { TrainingTimeout } from "../../../src/modules/fwa-learning/fit.js";
import { modelTrainingJob } from "../../../src/modules/fwa-learning/job.js";
import { learningRepo } from "../../../src/modules/fwa-learning/repo.js";
import { TRAINING_QUEUE } from "../../../src/modules/fwa-learning/training.js";
import { createJobRunner, type JobRunner } from "../../../src/platform/jobs/queue.js";
import { silentLog, startTestApp, TEST_DATABASE_URL, type TestContext, testConfig } from "../../helpers.js";
import { capturingLog, claimsCall, tokenFor, uploadBatch, waitForBatch } from "../claims-batch/fixtures.js";
import { HEAVY, learningBatch, ORDINARY } from "./fixtures.js";

describe("training the model on the workers", () => {
  // an API-only node (MIZAN_WORKERS=0): it only enqueues; `mizan worker`'s runner is started by hand
  let ctx: TestContext;
  let token: string;
  let batchId: string;
  const config = testConfig();
  let worker: JobRunner | undefined;

  const startWorker = async () => {
    worker = createJobRunner({
      db: ctx.db,
      databaseUrl: TEST_DATABASE_URL,
      concurrency: 1,
      definitions: jobDefinitions(config),
      pollingIntervalSeconds: 0.5,
      schema: config.jobsSchema,
    });
    await worker.start(silentLog);
  };
  const stopWorker = async () => {
    await worker?.stop();
    worker = undefined;
  };
  const model = async () =>
    (await claimsCall(ctx.app, token, { method: "GET", url: "/v1/fwa/model" })).json();
  const trainingJobStates = async () =>
    (
      await ctx.db.query<{ state: string }>(`SELECT state FROM ${config.jobsSchema}.job WHERE name = $1`, [
        TRAINING_QUEUE,
      ])
    ).map((job) => job.state);
  /** reads until `settled` holds or the deadline passes: the last reading */
  const readUntil = async <T>(read: () => Promise<T>, settled: (value: T) => boolean, deadline: number) => {
    let value = await read();
    while (!settled(value) && Date.now() < deadline) {
      await sleep(50);
      value = await read();
    }
    return value;
  };
  const jobContext = (log = silentLog) => ({
    db: ctx.db,
    jobs: ctx.jobs,
    log,
    attempt: 0,
    signal: new AbortController().signal,
  });

  before(async () => {
    ctx = await startTestApp({}, { workers: 0 });
    token = await tokenFor(ctx.app, ctx.tenant);
    const uploaded = await uploadBatch(ctx.app, token, learningBatch(1));
    assert.equal(uploaded.statusCode, 202, uploaded.body);
    batchId = uploaded.json().batch_id;
    await startWorker();
    assert.equal((await waitForBatch(ctx.app, token, batchId)).status, "completed");
    await stopWorker();
  });
  after(async () => {
    await stopWorker();
    await ctx.close();
  });

  it("queues one training for 20 posts in a row, answers them promptly, and a worker makes the model ready once", async () => {
    const everyone = [...HEAVY, ...ORDINARY];
    for (let k = 0; k < 20; k++) {
      const started = Date.now();
      const res = await claimsCall(ctx.app, token, {
        method: "POST",
        url: "/v1/fwa/outcomes",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({
          batch_id: batchId,
          providers: everyone
            .slice(2 * k, 2 * k + 2)
            .map((provider_id) => ({ provider_id, fraud: HEAVY.includes(provider_id) })),
        }),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().model.status, "training");
      assert.ok(Date.now() - started < 2_000, `post ${k} took ${Date.now() - started} ms`);
    }
    assert.deepEqual(await trainingJobStates(), ["created"], "one training waits for the 20 posts");
    // past the debounce, the API-only node has run nothing
    await sleep(1_500);
    assert.equal((await model()).status, "training");

    await startWorker();
    const deadline = Date.now() + 30_000;
    const now = await readUntil(model, (read) => read.status !== "training", deadline);
    assert.equal(now.status, "ready", JSON.stringify(now));
    assert.deepEqual([now.examples, now.positives, now.active], [40, 12, true]);
    // the handler's transaction makes the model ready; the queue marks its job completed just after
    const states = await readUntil(trainingJobStates, (read) => !read.includes("active"), deadline);
    assert.deepEqual(states, ["completed"], "one training ran");
    await stopWorker();
  });

  it("stops a training that runs past its time, and tells the tenant a code and a reference", async () => {
    const { entries, log } = capturingLog();
    const slow = modelTrainingJob({ trainingTimeoutMs: 1 });
    await slow.handle({ tenantId: ctx.tenant.id }, jobContext(log));
    const now = await model();
    assert.equal(now.status, "ready", "the model that stands stays");
    assert.match(
      now.message,
      /^MODEL_TRAINING_TIMEOUT: The model's training failed; reference [0-9a-f-]{36}$/,
    );
    const reference = now.message.split(" ").at(-1);
    const logged = entries.find((entry) => entry.reference === reference);
    assert.ok(logged?.err instanceof TrainingTimeout);
  });

  it("keeps a failed training's error in the log, never in the model's message", async () => {
    // an outcome whose features are gone: the fit throws, with its stack and the files it ran in
    await ctx.db.query(
      "UPDATE fwa_outcomes SET features = 'null'::jsonb WHERE tenant_id = $1 AND provider_id = 'F-0'",
      [ctx.tenant.id],
    );
    const job = modelTrainingJob(config.fwaLearning);
    const error = await job.handle({ tenantId: ctx.tenant.id }, jobContext()).catch((e: unknown) => e);
    assert.ok(error instanceof Error, "the fit failed");
    assert.match(String(error.stack), /provider-model|fit-thread/);
    const { entries, log } = capturingLog();
    await job.giveUp({ tenantId: ctx.tenant.id }, error, jobContext(log));

    const now = await model();
    assert.match(
      now.message,
      /^MODEL_TRAINING_FAILED: The model's training failed; reference [0-9a-f-]{36}$/,
    );
    const told = JSON.stringify(now);
    for (const secret of [error.message, "provider-model", "fit-thread", "/work", "    at "])
      assert.ok(!told.includes(secret), `${JSON.stringify(secret)} reached the tenant: ${told}`);
    const logged = entries.find((entry) => entry.reference === now.message.split(" ").at(-1));
    assert.equal(logged?.err, error);
    assert.equal(logged?.tenant, ctx.tenant.id);
  });

  it("fits boosted trees over the rich features when enough outcomes say they rank better, in the same response", async () => {
    const before = await model();
    // 400 outcomes: fraud when a rich feature is in a middle band (a line cannot draw it)
    await ctx.db.query("DELETE FROM fwa_outcomes WHERE tenant_id = $1", [ctx.tenant.id]);
    const random = seededRandom(7);
    const a = TENANT_FEATURES.indexOf("claim_lag");
    const rows = Array.from({ length: 400 }, (_, i) => {
      const features = TENANT_FEATURES.map(() => random());
      const fraud = Math.abs((features[a] as number) - 0.5) < 0.2;
      return { provider_id: `X-${i}`, features, fraud: random() < (fraud ? 0.95 : 0.05) };
    });
    await ctx.db.query(
      `INSERT INTO fwa_outcomes (tenant_id, batch_id, provider_id, features, fraud)
       SELECT $1, $2, r.provider_id, r.features, r.fraud
       FROM jsonb_to_recordset($3::jsonb) AS r (provider_id text, features jsonb, fraud boolean)`,
      [ctx.tenant.id, batchId, JSON.stringify(rows)],
    );
    await learningRepo.markTraining(ctx.db, ctx.tenant.id);
    await modelTrainingJob(config.fwaLearning).handle({ tenantId: ctx.tenant.id }, jobContext());
    const now = await model();
    assert.equal(now.status, "ready", JSON.stringify(now.message));
    assert.equal(now.active, true, JSON.stringify(now));
    assert.deepEqual(Object.keys(now).sort(), Object.keys(before).sort(), "GET /fwa/model keeps its shape");
    assert.deepEqual(
      now.features.map((f: { name: string }) => f.name),
      [...TENANT_FEATURES],
    );
    assert.ok(now.features.every((f: { weight: unknown }) => typeof f.weight === "number"));
    assert.ok(now.validation.roc_auc > 0.7, JSON.stringify(now.validation));
    const [stored] = await ctx.db.query<{ kind: string }>(
      "SELECT model->>'kind' AS kind FROM fwa_models WHERE tenant_id = $1",
      [ctx.tenant.id],
    );
    assert.equal(stored?.kind, "boosted-trees", "the stored model says its kind");
  });

  it("validates MIZAN_MODEL_TRAINING_TIMEOUT_MS at start (a few minutes by default)", () => {
    assert.equal(loadConfig({}).fwaLearning.trainingTimeoutMs, 300_000);
    assert.equal(
      loadConfig({ MIZAN_MODEL_TRAINING_TIMEOUT_MS: "60000" }).fwaLearning.trainingTimeoutMs,
      60_000,
    );
    for (const bad of ["0", "-5", "1.5", "soon", "3600001"])
      assert.throws(
        () => loadConfig({ MIZAN_MODEL_TRAINING_TIMEOUT_MS: bad }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.some((p) => p.startsWith("MIZAN_MODEL_TRAINING_TIMEOUT_MS must be an integer")),
      );
  });
});
