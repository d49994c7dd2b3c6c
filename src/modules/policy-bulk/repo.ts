import type { Queryable } from "../../platform/db/db.js";
import type { BulkPatientInput, PatientFailureView } from "./schemas.js";

export interface BulkJobRow {
  id: string;
  tenant_id: number;
  policy_id: number;
  ph_erp_id: string;
  policy_no: string;
  status: "queued" | "running" | "completed" | "failed";
  received: number;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  attempts: number;
  last_error: string | null;
  request_id: string | null;
  actor: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface PendingChunk {
  chunk_no: number;
  first_index: number;
  patients: BulkPatientInput[];
}

/** failures shown with a job; all are kept and counted */
export const SHOWN_FAILURES = 1_000;

const SELECT_JOB = `SELECT j.*, ph.ph_erp_id, p.policy_no FROM policy_bulk_jobs j
  JOIN policies p ON p.id = j.policy_id JOIN policy_holders ph ON ph.id = p.policy_holder_id`;

export const bulkJobRepo = {
  async insert(
    tx: Queryable,
    job: {
      id: string;
      tenantId: number;
      policyId: number;
      received: number;
      requestId: string;
      actor: string;
    },
  ) {
    await tx.query(
      `INSERT INTO policy_bulk_jobs (id, tenant_id, policy_id, received, request_id, actor)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [job.id, job.tenantId, job.policyId, job.received, job.requestId, job.actor],
    );
  },

  /** the request's patients, cut into chunks the worker imports one transaction at a time */
  async insertChunks(tx: Queryable, jobId: string, patients: readonly BulkPatientInput[], chunkSize: number) {
    const chunks: { no: number; first: number; json: string }[] = [];
    for (let first = 0; first < patients.length; first += chunkSize)
      chunks.push({
        no: chunks.length,
        first,
        json: JSON.stringify(patients.slice(first, first + chunkSize)),
      });
    await tx.query(
      `INSERT INTO policy_bulk_job_chunks (job_id, chunk_no, first_index, patients)
       SELECT $1, c.no, c.first, c.patients FROM unnest($2::int[], $3::int[], $4::jsonb[]) AS c (no, first, patients)`,
      [jobId, chunks.map((c) => c.no), chunks.map((c) => c.first), chunks.map((c) => c.json)],
    );
  },

  /** the tenant's job (what GET bulk-job reads) */
  async find(db: Queryable, tenantId: number, jobId: string): Promise<BulkJobRow | undefined> {
    const rows = await db.query<BulkJobRow>(`${SELECT_JOB} WHERE j.id = $1 AND j.tenant_id = $2`, [
      jobId,
      tenantId,
    ]);
    return rows[0];
  },

  /** the job whatever its tenant: the worker knows the job id only */
  async findForWorker(db: Queryable, jobId: string): Promise<BulkJobRow | undefined> {
    const rows = await db.query<BulkJobRow>(`${SELECT_JOB} WHERE j.id = $1`, [jobId]);
    return rows[0];
  },

  async markRunning(db: Queryable, jobId: string) {
    await db.query(
      `UPDATE policy_bulk_jobs SET status = 'running', attempts = attempts + 1,
         started_at = COALESCE(started_at, now()), updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'running')`,
      [jobId],
    );
  },

  /** the first chunk no other transaction holds, locked until the caller's transaction ends */
  async claimNextChunk(tx: Queryable, jobId: string): Promise<PendingChunk | undefined> {
    const rows = await tx.query<PendingChunk>(
      `SELECT chunk_no, first_index, patients FROM policy_bulk_job_chunks WHERE job_id = $1
       ORDER BY chunk_no LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [jobId],
    );
    return rows[0];
  },

  async countChunks(db: Queryable, jobId: string): Promise<number> {
    const rows = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM policy_bulk_job_chunks WHERE job_id = $1`,
      [jobId],
    );
    return rows[0]?.n ?? 0;
  },

  /** records a chunk's outcome and removes it, in the chunk's transaction: a chunk counts exactly once */
  async completeChunk(
    tx: Queryable,
    jobId: string,
    chunkNo: number,
    outcome: { processed: number; created: number; updated: number; failures: readonly PatientFailureView[] },
  ) {
    const { failures } = outcome;
    if (failures.length > 0)
      await tx.query(
        `INSERT INTO policy_bulk_job_errors (job_id, patient_index, member_id, code, message)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[])`,
        [
          jobId,
          failures.map((f) => f.index),
          failures.map((f) => f.member_id),
          failures.map((f) => f.code),
          failures.map((f) => f.message),
        ],
      );
    await tx.query(`DELETE FROM policy_bulk_job_chunks WHERE job_id = $1 AND chunk_no = $2`, [
      jobId,
      chunkNo,
    ]);
    await tx.query(
      `UPDATE policy_bulk_jobs SET processed = processed + $2, created = created + $3, updated = updated + $4,
         failed = failed + $5, updated_at = now()
       WHERE id = $1`,
      [jobId, outcome.processed, outcome.created, outcome.updated, failures.length],
    );
  },

  /** false when the job had finished already (only one attempt finishes a job) */
  async finish(tx: Queryable, jobId: string, status: "completed" | "failed", lastError: string | null) {
    const finished = await tx.query(
      `UPDATE policy_bulk_jobs SET status = $2, last_error = COALESCE($3, last_error), finished_at = now(),
         updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
      [jobId, status, lastError],
    );
    if (finished.length === 0) return false;
    // a failed job's unimported patients are not kept: its record says how far it got
    await tx.query(`DELETE FROM policy_bulk_job_chunks WHERE job_id = $1`, [jobId]);
    return true;
  },

  async recordAttemptError(db: Queryable, jobId: string, message: string) {
    await db.query(`UPDATE policy_bulk_jobs SET last_error = $2, updated_at = now() WHERE id = $1`, [
      jobId,
      message,
    ]);
  },

  async listFailures(db: Queryable, jobId: string, limit = SHOWN_FAILURES): Promise<PatientFailureView[]> {
    return db.query<PatientFailureView>(
      `SELECT patient_index AS index, member_id, code, message FROM policy_bulk_job_errors
       WHERE job_id = $1 ORDER BY patient_index LIMIT $2`,
      [jobId, limit],
    );
  },
};
