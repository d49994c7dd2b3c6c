import { randomUUID } from "node:crypto";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { AppError, refusal } from "../../platform/http/errors.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { networkRepo } from "../networks/repo.js";
import { requirePolicy } from "../policies/service.js";
import { importPatients, retryRaced } from "./import.js";
import { type BulkJobRow, bulkJobRepo } from "./repo.js";
import type { BulkInput, BulkPatientInput, PatientFailureView } from "./schemas.js";

export const BULK_IMPORT_QUEUE = "policy-bulk-import";
/** patients imported per transaction by the asynchronous job */
export const CHUNK_SIZE = 1_000;
/** problems one refused import names: a bulk request can carry many */
const SHOWN_PROBLEMS = 100;

/** rules across fields and patients that the schema cannot say; any of them refuses the whole request */
function checkPatients(patients: readonly BulkPatientInput[], now: Date): void {
  const problems: string[] = [];
  const firstIndex = new Map<string, number>();
  patients.forEach((patient, i) => {
    if (patient.effective_end_date < patient.effective_start_date)
      problems.push(`patients[${i}].effective_end_date must not be before effective_start_date`);
    if (new Date(patient.date_of_birth).getTime() > now.getTime())
      problems.push(`patients[${i}].date_of_birth must not be in the future`);
    const first = firstIndex.get(patient.member_id);
    if (first === undefined) firstIndex.set(patient.member_id, i);
    else problems.push(`patients[${i}].member_id duplicates patients[${first}]`);
  });
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems, undefined, SHOWN_PROBLEMS);
}

/** the networks the patients name; an unknown one refuses the request (404 E_EPA_015) */
async function resolveNetworks(db: Queryable, tenantId: number, patients: readonly BulkPatientInput[]) {
  const names = [...new Set(patients.flatMap((p) => (p.network_code === undefined ? [] : [p.network_code])))];
  const networkIds = await networkRepo.findIdsByNames(db, tenantId, names);
  const unknown = patients.flatMap((p, i) =>
    p.network_code !== undefined && !networkIds.has(p.network_code)
      ? [`patients[${i}].network_code: network ${p.network_code} not found`]
      : [],
  );
  if (unknown.length > 0) throw refusal("E_EPA_015", unknown, undefined, SHOWN_PROBLEMS);
  return networkIds;
}

/** the checks both imports make before anything is written */
async function prepare(db: Db, tenantId: number, input: BulkInput, now: Date) {
  checkPatients(input.patients, now);
  const policy = await requirePolicy(db, tenantId, input, "E_EPA_014");
  const networkIds = await resolveNetworks(db, tenantId, input.patients);
  return { policy, networkIds };
}

export interface BulkSummary {
  received: number;
  created: number;
  updated: number;
  failed: number;
  errors: PatientFailureView[];
}

/**
 * The synchronous import: all patients in one transaction. When no patient could be imported the answer
 * is the error that stopped them (409 E_EPA_069, details by index), and nothing is written.
 */
export async function importPatientsNow(db: Db, actor: TenantActor, input: BulkInput, now = new Date()) {
  const { policy, networkIds } = await prepare(db, actor.tenantId, input, now);
  const outcome = await retryRaced(() =>
    db.transaction(async (tx) => {
      const result = await importPatients(tx, actor.tenantId, policy, input.patients, 0, networkIds);
      const { failures } = result;
      if (result.created + result.updated === 0 && failures.length > 0) {
        const code = failures[0]?.code === "E_EPA_015" ? "E_EPA_015" : "E_EPA_069";
        const details = failures.map((f) => `patients[${f.index}] ${f.member_id}: ${f.message}`);
        throw refusal(code, details, failures[0]?.message, SHOWN_PROBLEMS);
      }
      await recordAudit(tx, actor, {
        action: "policy.bulk-import",
        entityType: "policy",
        entityKey: `${input.ph_erp_id}/${input.policy_no}`,
        details: {
          received: input.patients.length,
          created: result.created,
          updated: result.updated,
          failed: failures.length,
        },
      });
      return result;
    }),
  );
  return {
    received: input.patients.length,
    created: outcome.created,
    updated: outcome.updated,
    failed: outcome.failures.length,
    errors: outcome.failures,
  } satisfies BulkSummary;
}

/**
 * The asynchronous import: the request is checked as the synchronous one is, then stored in chunks with
 * its job, in one transaction with the job's enqueueing. Answers the job id.
 */
export async function startBulkImport(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  input: BulkInput,
  now = new Date(),
): Promise<string> {
  const { policy } = await prepare(db, actor.tenantId, input, now);
  const jobId = randomUUID();
  await db.transaction(async (tx) => {
    await bulkJobRepo.insert(tx, {
      id: jobId,
      tenantId: actor.tenantId,
      policyId: policy.id,
      received: input.patients.length,
      requestId: actor.requestId ?? "",
      actor: actor.actor,
    });
    await bulkJobRepo.insertChunks(tx, jobId, input.patients, CHUNK_SIZE);
    await jobs.send(tx, BULK_IMPORT_QUEUE, { jobId, requestId: actor.requestId });
    await recordAudit(tx, actor, {
      action: "policy.bulk-import.accepted",
      entityType: "policy-bulk-job",
      entityKey: jobId,
      details: { policy: `${input.ph_erp_id}/${input.policy_no}`, received: input.patients.length },
    });
  });
  return jobId;
}

/** a job with its counters and first failures, as GET bulk-job and the POLICY event show it */
export async function presentBulkJob(db: Queryable, job: BulkJobRow) {
  const errors = await bulkJobRepo.listFailures(db, job.id);
  return {
    job_id: job.id,
    status: job.status,
    ph_erp_id: job.ph_erp_id,
    policy_no: job.policy_no,
    received: job.received,
    processed: job.processed,
    created: job.created,
    updated: job.updated,
    failed: job.failed,
    errors,
    errors_truncated: job.failed > errors.length,
    last_error: job.last_error,
    created_at: job.created_at.toISOString(),
    started_at: job.started_at?.toISOString() ?? null,
    finished_at: job.finished_at?.toISOString() ?? null,
  };
}

export async function getBulkJob(db: Db, tenantId: number, jobId: string) {
  const job = await bulkJobRepo.find(db, tenantId, jobId);
  if (job === undefined) throw new AppError("E_BULK_JOB_404", `Bulk import job ${jobId} not found`);
  return presentBulkJob(db, job);
}
