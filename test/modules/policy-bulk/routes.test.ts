import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { jobDefinitions } from "../../../src/jobs.js";
import { bulkImportJob } from "../../../src/modules/policy-bulk/job.js";
import { bulkJobRepo } from "../../../src/modules/policy-bulk/repo.js";
import { BULK_IMPORT_QUEUE, CHUNK_SIZE } from "../../../src/modules/policy-bulk/service.js";
import { listEvents } from "../../../src/platform/events/outbox.js";
import { createJobRunner } from "../../../src/platform/jobs/queue.js";
import {
  auditActions,
  silentLog,
  startTestApp,
  TEST_DATABASE_URL,
  type TenantClient,
  type TestContext,
  testConfig,
} from "../../helpers.js";
import {
  bulkPatient,
  createHolder,
  createMember,
  createNetwork,
  createPolicy,
  query,
} from "../policies/fixtures.js";

const key = { ph_erp_id: "PH1", policy_no: "POL-B" };

async function linkOf(tenant: TenantClient, memberId: string, policyNo = key.policy_no) {
  return tenant.call(
    "PATCH",
    `/policy/patient-policy${query({ ...key, policy_no: policyNo, member_id: memberId })}`,
    {},
  );
}

async function waitForJob(tenant: TenantClient, jobId: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = (await tenant.call("GET", `/policy/bulk-job/${jobId}`)).json();
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > until) throw new Error(`job ${jobId} still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("bulk patient import", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
    await createHolder(ctx.tenant, "PH1");
    await createPolicy(ctx.tenant, "PH1", "POL-B");
    await createPolicy(ctx.tenant, "PH1", "POL-OTHER");
    await createNetwork(ctx.tenant, "GOLD");
    await createMember(ctx.tenant, "EXIST", { name: "Kept Name", national_id: "999", gender: "FEMALE" });
  });
  after(() => ctx.close());

  describe("POST /policy/bulk-patient-to-policy", () => {
    it("creates and updates members, links them, and answers a summary", async () => {
      const res = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
        ...key,
        patients: [
          bulkPatient("NEW-1", { network_code: "GOLD", is_vip: true, email: "a@example.sa" }),
          bulkPatient("NEW-2", { category_code: "B" }),
          bulkPatient("EXIST", { gender: "MALE", marital_status: "WIDOWED" }),
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        received: 3,
        created: 2,
        updated: 1,
        failed: 0,
        errors: [],
        code: 200,
        message: "Bulk import finished",
      });
      const link = (await linkOf(ctx.tenant, "NEW-1")).json();
      assert.equal(link.network_code, "GOLD");
      assert.equal(link.is_vip, true);
      assert.equal(link.start_date, "2026-01-01");
      assert.equal((await linkOf(ctx.tenant, "NEW-2")).json().category_code, "B");
      const exist = (await ctx.tenant.call("GET", "/member/EXIST")).json();
      assert.equal(exist.gender, "MALE", "sent fields are updated");
      assert.equal(exist.marital_status, "WIDOWED");
      assert.equal(exist.name, "Kept Name", "fields not sent are kept");
      assert.equal(exist.national_id, "999");
      assert.deepEqual(await auditActions(ctx.db, ctx.tenant.id, "policy", "PH1/POL-B"), [
        "policy.create",
        "policy.bulk-import",
      ]);
    });

    it("reports patients that cannot be linked by index, and imports the rest", async () => {
      const res = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
        ...key,
        patients: [bulkPatient("NEW-3"), bulkPatient("NEW-1", { name: "Must Not Change" })],
      });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.created, 1);
      assert.equal(body.failed, 1);
      assert.deepEqual(body.errors, [
        {
          index: 1,
          member_id: "NEW-1",
          code: "E_EPA_069",
          message: "Patient NEW-1 is already assigned to policy POL-B",
        },
      ]);
      assert.equal(
        (await ctx.tenant.call("GET", "/member/NEW-1")).json().name,
        null,
        "a failed patient changes nothing",
      );
    });

    it("refuses a patient actively covered by another policy for the same dates", async () => {
      const res = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
        ...key,
        policy_no: "POL-OTHER",
        patients: [bulkPatient("NEW-2", { effective_start_date: "2026-12-01T00:00:00.000Z" })],
      });
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().ErrorCode, "E_EPA_069");
      assert.match(res.json().details[0], /patients\[0\] NEW-2: .*active policy POL-B/);
    });

    it("answers 409 E_EPA_069 when no patient could be imported", async () => {
      const res = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
        ...key,
        patients: [bulkPatient("NEW-1"), bulkPatient("NEW-2")],
      });
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().details.length, 2);
    });

    it("answers 404 E_EPA_014 for an unknown policy or holder and E_EPA_015 for an unknown network", async () => {
      const patients = [bulkPatient("NOPE-1")];
      const noPolicy = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
        ...key,
        policy_no: "X",
        patients,
      });
      assert.equal(noPolicy.statusCode, 404);
      assert.equal(noPolicy.json().ErrorCode, "E_EPA_014");
      const noHolder = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
        ...key,
        ph_erp_id: "X",
        patients,
      });
      assert.equal(noHolder.json().ErrorCode, "E_EPA_014");
      const noNetwork = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
        ...key,
        patients: [bulkPatient("NOPE-1"), bulkPatient("NOPE-2", { network_code: "MISSING" })],
      });
      assert.equal(noNetwork.statusCode, 404);
      assert.equal(noNetwork.json().ErrorCode, "E_EPA_015");
      assert.match(noNetwork.json().details[0], /patients\[1\].network_code: network MISSING not found/);
      assert.equal((await ctx.tenant.call("GET", "/member/NOPE-1")).statusCode, 404, "nothing was written");
    });

    it("answers 400 naming the patient's field", async () => {
      const cases: [unknown[], RegExp][] = [
        [
          [bulkPatient("D1"), { ...bulkPatient("D2"), gender: undefined }],
          /patients\[1\].gender is required/,
        ],
        [[bulkPatient("D1", { email: "not-mail" })], /patients\[0\].email must be a valid e-mail address/],
        [
          [bulkPatient("D1", { effective_start_date: "2026-01-01" })],
          /patients\[0\].effective_start_date must be a date-time/,
        ],
        [[bulkPatient("D1"), bulkPatient("D1")], /patients\[1\].member_id duplicates patients\[0\]/],
        [
          [bulkPatient("D1", { effective_end_date: "2025-01-01T00:00:00.000Z" })],
          /patients\[0\].effective_end_date must not be before effective_start_date/,
        ],
        [
          [bulkPatient("D1", { date_of_birth: "2999-01-01T00:00:00.000Z" })],
          /date_of_birth must not be in the future/,
        ],
        [[], /patients must not have fewer than 1 items/],
        [[bulkPatient("D1", { insured_notes: "x".repeat(501) })], /patients\[0\].insured_notes/],
      ];
      for (const [patients, message] of cases) {
        const res = await ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", { ...key, patients });
        assert.equal(res.statusCode, 400, String(message));
        assert.equal(res.json().ErrorCode, "E_BAD_REQUEST_400");
        assert.match(res.json().details.join("\n"), message);
      }
      assert.equal((await ctx.tenant.call("GET", "/member/D1")).statusCode, 404);
    });

    it("keeps a member whole when two imports touch it at once", async () => {
      await createPolicy(ctx.tenant, "PH1", "POL-C1");
      await createPolicy(ctx.tenant, "PH1", "POL-C2");
      const many = (policyNo: string, name: string) =>
        ctx.tenant.call("POST", "/policy/bulk-patient-to-policy", {
          ...key,
          policy_no: policyNo,
          patients: Array.from({ length: 50 }, (_, i) => bulkPatient(`RACE-${i}`, { name })),
        });
      const [first, second] = await Promise.all([many("POL-C1", "From C1"), many("POL-C2", "From C2")]);
      const bodies = [first.json(), second.json()];
      const statuses = [first.statusCode, second.statusCode].sort();
      // one import links all 50; the other finds every member covered by it for the same dates
      assert.deepEqual(statuses, [200, 409], JSON.stringify(bodies));
      const winner = first.statusCode === 200 ? "From C1" : "From C2";
      const rows = await ctx.db.query<{ n: number; names: string[] }>(
        `SELECT count(*)::int AS n, array_agg(DISTINCT name) AS names FROM members
         WHERE tenant_id = $1 AND member_id LIKE 'RACE-%'`,
        [ctx.tenant.id],
      );
      assert.equal(rows[0]?.n, 50);
      assert.deepEqual(rows[0]?.names, [winner]);
      const links = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM patient_policies pp JOIN members m ON m.id = pp.member_pk
         WHERE m.tenant_id = $1 AND m.member_id LIKE 'RACE-%'`,
        [ctx.tenant.id],
      );
      assert.equal(links[0]?.n, 50);
    });
  });

  describe("POST /policy/async-bulk-patient-to-policy", () => {
    it("answers 202 with a job id, imports in the background, and sends the summary as a POLICY event", async () => {
      await createPolicy(ctx.tenant, "PH1", "POL-ASYNC");
      const patients = Array.from({ length: 2_300 }, (_, i) =>
        bulkPatient(`A-${i}`, { network_code: "GOLD" }),
      );
      patients.push(bulkPatient("NEW-1", { effective_start_date: "2026-06-01T00:00:00.000Z" }));
      const res = await ctx.tenant.call("POST", "/policy/async-bulk-patient-to-policy", {
        ...key,
        policy_no: "POL-ASYNC",
        patients,
      });
      assert.equal(res.statusCode, 202, res.body);
      const { job_id: jobId, status_url: statusUrl } = res.json();
      assert.match(jobId, /^[0-9a-f-]{36}$/);
      assert.equal(statusUrl, `/${ctx.tenant.name}/v4.0/health/policy/bulk-job/${jobId}`);

      const job = await waitForJob(ctx.tenant, jobId);
      assert.equal(job.status, "completed");
      assert.equal(job.received, 2_301);
      assert.equal(job.processed, 2_301);
      assert.equal(job.created, 2_300);
      assert.equal(job.failed, 1);
      assert.equal(job.errors[0].index, 2_300);
      assert.equal(job.errors[0].code, "E_EPA_069");
      assert.ok(job.finished_at);
      assert.equal((await linkOf(ctx.tenant, "A-2299", "POL-ASYNC")).json().network_code, "GOLD");

      const events = await listEvents(ctx.db, ctx.tenant.id, "POLICY");
      const event = events.find((e) => e.data.job_id === jobId);
      assert.ok(event, "a POLICY event carries the summary");
      assert.equal(event.event_type, "POLICY");
      assert.equal(event.data.type, "BULK_PATIENT_IMPORT");
      assert.equal(event.data.status, "completed");
      assert.equal(event.data.created, 2_300);
      const chunksLeft = await ctx.db.query(`SELECT 1 FROM policy_bulk_job_chunks WHERE job_id = $1`, [
        jobId,
      ]);
      assert.equal(chunksLeft.length, 0);
    });

    it("checks the request before accepting it", async () => {
      const patients = [bulkPatient("Q-1", { network_code: "MISSING" })];
      const noNetwork = await ctx.tenant.call("POST", "/policy/async-bulk-patient-to-policy", {
        ...key,
        patients,
      });
      assert.equal(noNetwork.statusCode, 404);
      assert.equal(noNetwork.json().ErrorCode, "E_EPA_015");
      const noPolicy = await ctx.tenant.call("POST", "/policy/async-bulk-patient-to-policy", {
        ...key,
        policy_no: "X",
        patients: [bulkPatient("Q-1")],
      });
      assert.equal(noPolicy.json().ErrorCode, "E_EPA_014");
      const invalid = await ctx.tenant.call("POST", "/policy/async-bulk-patient-to-policy", {
        ...key,
        patients: [bulkPatient("Q-1", { gender: "X" })],
      });
      assert.equal(invalid.statusCode, 400);
      const jobs = await ctx.db.query(
        `SELECT 1 FROM policy_bulk_jobs WHERE tenant_id = $1 AND received = 1`,
        [ctx.tenant.id],
      );
      assert.equal(jobs.length, 0);
    });

    it("does not show a job to another tenant, and refuses a malformed id", async () => {
      const [job] = await ctx.db.query<{ id: string }>(
        `SELECT id FROM policy_bulk_jobs WHERE tenant_id = $1`,
        [ctx.tenant.id],
      );
      const other = await ctx.newTenant();
      const res = await other.call("GET", `/policy/bulk-job/${job?.id}`);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().ErrorCode, "E_BULK_JOB_404");
      assert.equal((await ctx.tenant.call("GET", "/policy/bulk-job/not-a-uuid")).statusCode, 400);
    });
  });
});

describe("bulk import job resumes after its worker stops mid-job", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({}, { workers: 0 });
    await createHolder(ctx.tenant, "PH1");
    await createPolicy(ctx.tenant, "PH1", "POL-B");
  });
  after(() => ctx.close());

  /**
   * An accepted import of `count` patients whose job no worker has taken yet (made without enqueueing
   * it, so that no worker of another test process sharing the PostgreSQL takes it from this test).
   */
  async function acceptedImport(prefix: string, count: number): Promise<string> {
    const jobId = randomUUID();
    const [policy] = await ctx.db.query<{ id: number }>(`SELECT id FROM policies WHERE tenant_id = $1`, [
      ctx.tenant.id,
    ]);
    await ctx.db.transaction(async (tx) => {
      await bulkJobRepo.insert(tx, {
        id: jobId,
        tenantId: ctx.tenant.id,
        policyId: policy?.id as number,
        received: count,
        requestId: "req-resume",
        actor: "test",
      });
      const patients = Array.from({ length: count }, (_, i) => bulkPatient(`${prefix}-${i}`));
      await bulkJobRepo.insertChunks(tx, jobId, patients, CHUNK_SIZE);
    });
    return jobId;
  }

  it("shares the chunks between two overlapping attempts and finishes once", async () => {
    const jobId = await acceptedImport("O", 3_500);
    const attempt = () =>
      bulkImportJob.handle(
        { jobId },
        { db: ctx.db, jobs: ctx.jobs, log: silentLog, attempt: 0, signal: new AbortController().signal },
      );
    await Promise.all([attempt(), attempt()]);
    const job = (await ctx.tenant.call("GET", `/policy/bulk-job/${jobId}`)).json();
    assert.equal(job.status, "completed");
    assert.deepEqual([job.processed, job.created, job.failed], [3_500, 3_500, 0]);
    const events = (await listEvents(ctx.db, ctx.tenant.id, "POLICY")).filter((e) => e.data.job_id === jobId);
    assert.equal(events.length, 1);
  });

  it("imports every patient exactly once", async () => {
    const jobId = await acceptedImport("R", 3_500);

    // a first worker runs the job and is stopped once its first chunk has committed: the job reads its
    // signal before each chunk, and this one reads "aborted" from the second time on
    let reads = 0;
    const stopsAfterOneChunk = {
      get aborted() {
        reads += 1;
        return reads > 1;
      },
    } as AbortSignal;
    await assert.rejects(
      bulkImportJob.handle(
        { jobId },
        { db: ctx.db, jobs: undefined as never, log: silentLog, attempt: 0, signal: stopsAfterOneChunk },
      ),
      /worker stopped/,
    );
    const midway = (await ctx.tenant.call("GET", `/policy/bulk-job/${jobId}`)).json();
    assert.equal(midway.status, "running");
    assert.equal(midway.processed, 1_000);
    // what stopped it stays in the log; the tenant reads a reference to it
    assert.match(midway.last_error, /^The bulk import attempt failed; reference [0-9a-f-]{36}$/);

    // the job is then queued and worked by a fresh worker, which resumes at the first chunk left
    await ctx.db.transaction((tx) => ctx.jobs.send(tx, BULK_IMPORT_QUEUE, { jobId }));
    const worker = createJobRunner({
      db: ctx.db,
      databaseUrl: TEST_DATABASE_URL,
      concurrency: 1,
      definitions: jobDefinitions(testConfig()),
      pollingIntervalSeconds: 0.5,
      schema: testConfig().jobsSchema,
    });
    await worker.start(ctx.app.log);
    try {
      const job = await waitForJob(ctx.tenant, jobId);
      assert.equal(job.status, "completed");
      assert.equal(job.processed, 3_500);
      assert.equal(job.created, 3_500);
      assert.equal(job.failed, 0, JSON.stringify(job.errors.slice(0, 3)));
      const [links] = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM patient_policies pp JOIN policies p ON p.id = pp.policy_id
         JOIN members m ON m.id = pp.member_pk
         WHERE p.tenant_id = $1 AND p.policy_no = 'POL-B' AND m.member_id LIKE 'R-%'`,
        [ctx.tenant.id],
      );
      assert.equal(links?.n, 3_500);
    } finally {
      await worker.stop();
    }
  });
});
