import { recordAudit } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { emitEvent } from "../../platform/events/outbox.js";
import { publicFailure } from "../../platform/jobs/failure.js";
import type { JobContext, JobDefinition, JobQueue } from "../../platform/jobs/queue.js";
import { networkRepo } from "../networks/repo.js";
import { importPatients, retryRaced } from "./import.js";
import { bulkJobRepo } from "./repo.js";
import { BULK_IMPORT_QUEUE, presentBulkJob } from "./service.js";

interface BulkImportJobData {
  jobId: string;
  requestId?: string;
}

/** the audit actor of a job's writes: who asked for the import, under the request id that asked */
function actorOf(tenantId: number, actor: string | null, requestId: string | null) {
  return { tenantId, actor: `${actor ?? "unknown"} (bulk import job)`, requestId: requestId ?? undefined };
}

/**
 * Finishes a job: its record, the POLICY event carrying the summary to the tenant's webhooks, and the
 * audit record, in one transaction.
 */
async function finishJob(
  db: Db,
  jobs: JobQueue,
  jobId: string,
  status: "completed" | "failed",
  lastError: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await bulkJobRepo.finish(tx, jobId, status, lastError))) return false; // finished already
    const job = await bulkJobRepo.findForWorker(tx, jobId);
    if (job === undefined) return false;
    const summary = await presentBulkJob(tx, job);
    await emitEvent(tx, jobs, job.tenant_id, {
      hookType: "POLICY",
      eventType: "POLICY",
      data: { type: "BULK_PATIENT_IMPORT", ...summary },
      subject: `policy-bulk-job:${jobId}`,
      requestId: job.request_id ?? undefined,
    });
    await recordAudit(tx, actorOf(job.tenant_id, job.actor, job.request_id), {
      action: `policy.bulk-import.${status}`,
      entityType: "policy-bulk-job",
      entityKey: jobId,
      details: { received: job.received, created: job.created, updated: job.updated, failed: job.failed },
    });
    return true;
  });
}

/**
 * Imports a job's chunks one transaction each: a chunk is claimed (FOR UPDATE SKIP LOCKED), imported,
 * counted and deleted in one transaction, so an attempt that dies resumes at the first chunk left, and
 * two attempts that overlap (a worker presumed dead that is still running) share the chunks instead of
 * importing one twice. Whoever sees the last chunk gone finishes the job, once.
 */
async function runBulkImport(data: BulkImportJobData, context: JobContext): Promise<void> {
  const { db, log } = context;
  const job = await bulkJobRepo.findForWorker(db, data.jobId);
  if (job === undefined || job.status === "completed" || job.status === "failed") {
    log.warn({ bulkJob: data.jobId, status: job?.status }, "bulk import job has nothing left to do");
    return;
  }
  await bulkJobRepo.markRunning(db, job.id);
  const policy = { id: job.policy_id, policy_no: job.policy_no };
  const importNextChunk = () =>
    db.transaction(async (tx) => {
      const chunk = await bulkJobRepo.claimNextChunk(tx, job.id);
      if (chunk === undefined) return false;
      const { patients, first_index: firstIndex, chunk_no: chunkNo } = chunk;
      const names = [
        ...new Set(patients.flatMap((p) => (p.network_code === undefined ? [] : [p.network_code]))),
      ];
      const networkIds = await networkRepo.findIdsByNames(tx, job.tenant_id, names);
      const outcome = await importPatients(tx, job.tenant_id, policy, patients, firstIndex, networkIds);
      await bulkJobRepo.completeChunk(tx, job.id, chunkNo, { processed: patients.length, ...outcome });
      return true;
    });
  for (;;) {
    if (context.signal.aborted) throw new Error("the worker stopped; the import resumes at its next chunk");
    if (!(await retryRaced(importNextChunk))) break;
  }
  if ((await bulkJobRepo.countChunks(db, job.id)) > 0) return; // another attempt holds the rest
  if (await finishJob(db, context.jobs, job.id, "completed", null))
    log.info({ bulkJob: job.id, received: job.received }, "bulk import completed");
}

export const bulkImportJob: JobDefinition<BulkImportJobData> = {
  queue: BULK_IMPORT_QUEUE,
  retryLimit: 5,
  heartbeatSeconds: 30,
  async handle(data, context) {
    try {
      await runBulkImport(data, context);
    } catch (error) {
      // shown by GET bulk-job while the queue waits to retry: a reference, the error itself in the log
      const failure = publicFailure(context.log, error, "BULK_IMPORT_FAILED", "The bulk import attempt", {
        bulkJob: data.jobId,
      });
      await bulkJobRepo.recordAttemptError(context.db, data.jobId, failure.message).catch(() => {});
      throw error;
    }
  },
  async giveUp(data, error, context) {
    const failure = publicFailure(context.log, error, "BULK_IMPORT_FAILED", "The bulk import", {
      bulkJob: data.jobId,
    });
    await finishJob(context.db, context.jobs, data.jobId, "failed", failure.message);
  },
};
