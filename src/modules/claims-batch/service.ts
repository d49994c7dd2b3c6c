import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { BatchSettings } from "../../config.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import { emitEvent } from "../../platform/events/outbox.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { type BatchRow, batchRepo, type NewBatch, subscriptionRepo } from "./repo.js";
import { type SpoolPlace, type SpoolWriter, spoolFor } from "./spool/spool.js";
import { presentSubscription } from "./subscriptions.js";
import { type IngestOutcome, ingestBatch, MAX_SHOWN, UploadTooLarge } from "./upload/ingest.js";

export { providerRankingPage, rankedProvider, rankingCsv, rankingPage } from "./rankings.js";
export type { BatchRow } from "./repo.js";
export {
  flaggedClaimsOfProvider,
  type ResultsAvailability,
  resultsAvailability,
  resultsCsv,
  resultsPage,
  scoreHistogram,
} from "./results.js";
export { presentSubscription, subscribe, unsubscribe } from "./subscriptions.js";

export const ANALYSIS_QUEUE = "claims-batch-analysis";

/** a rough estimate of the analysis, from the bench: tens of microseconds an item, and a start-up */
export function estimatedCompletion(from: Date, itemsLeft: number): string {
  return new Date(from.getTime() + 3_000 + itemsLeft * 0.03).toISOString();
}

/** what the 400 of a refused upload carries (the spec's body shape) */
export interface RefusedUpload {
  accepted: false;
  body: {
    error: { code: "VALIDATION_ERROR"; message: string; details: IngestOutcome["problems"] };
    batch_reference_id: string | null;
    timestamp: string;
  };
}

export interface AcceptedUpload {
  accepted: true;
  body: {
    batch_id: string;
    batch_reference_id: string;
    status: "queued";
    total_claims: number;
    total_items: number;
    submitted_at: string;
    estimated_completion_time: string;
    webhook_url: string | null;
    message: string;
  };
}

/** a batch's event to the tenant's claims subscriptions: its data leads with the batch's two ids */
export async function emitForBatch(
  tx: Queryable,
  jobs: JobQueue,
  batch: Pick<BatchRow, "id" | "batch_reference_id" | "tenant_id" | "request_id">,
  eventType: string,
  data: Record<string, unknown>,
): Promise<void> {
  await emitEvent(tx, jobs, batch.tenant_id, {
    hookType: "CLAIMS_BATCH",
    eventType,
    data: { batch_id: batch.id, batch_reference_id: batch.batch_reference_id, ...data },
    subject: `batch:${batch.id}`,
    requestId: batch.request_id ?? undefined,
  });
}

/** stores a received batch and announces it: batch.queued, then batch.validating */
async function recordBatch(tx: Queryable, jobs: JobQueue, row: NewBatch): Promise<BatchRow> {
  const batch = await batchRepo.insert(tx, row);
  const totals = { total_claims: row.total_claims, total_items: row.total_items };
  await emitForBatch(tx, jobs, batch, "batch.queued", totals);
  await emitForBatch(tx, jobs, batch, "batch.validating", { validation_progress: 0 });
  return batch;
}

/**
 * Receives a batch: streamed, checked claim by claim and spooled as it arrives. A valid batch is stored
 * queued with its analysis job, a refused one with its problems (its reference stays free); the events
 * batch.queued and batch.validating, then batch.validation_failed or (when the analysis starts)
 * batch.processing, go to the tenant's claims subscriptions.
 */
export async function submitBatch(
  db: Db,
  jobs: JobQueue,
  settings: BatchSettings,
  actor: TenantActor,
  upload: { body: Readable; gzip: boolean },
  now: () => Date = () => new Date(),
): Promise<AcceptedUpload | RefusedUpload> {
  const id = randomUUID();
  const spool = await spoolFor(settings.spool, { db, spoolDir: settings.spoolDir }).open(id);
  const ingest = await spooledUpload(upload, settings, spool);
  const root = ingest.root;
  const reference = typeof root.batch_reference_id === "string" ? root.batch_reference_id : null;
  const submittedAt = now();
  if (ingest.problemCount > 0) {
    await spool.abort();
    return refuse(db, jobs, actor, id, ingest, reference, submittedAt);
  }
  const batchReference = reference as string;
  try {
    const place: SpoolPlace = await spool.finish();
    return await withConflicts(
      () =>
        db.transaction(async (tx) => {
          await recordBatch(tx, jobs, {
            id,
            tenant_id: actor.tenantId,
            batch_reference_id: batchReference,
            description: root.description ?? null,
            start_date: root.start_date ?? null,
            end_date: root.end_date ?? null,
            status: "queued",
            accepted: true,
            total_claims: ingest.totalClaims,
            total_items: ingest.totalItems,
            ...place,
            request_id: actor.requestId ?? null,
            error: null,
            error_code: null,
            validation_errors: null,
          });
          const totals = { total_claims: ingest.totalClaims, total_items: ingest.totalItems };
          await jobs.send(tx, ANALYSIS_QUEUE, { batchId: id, requestId: actor.requestId });
          await recordAudit(tx, actor, {
            action: "claims-batch.submit",
            entityType: "claims-batch",
            entityKey: id,
            details: { batch_reference_id: batchReference, ...totals, bytes: ingest.receivedBytes },
          });
          return {
            accepted: true as const,
            body: {
              batch_id: id,
              batch_reference_id: batchReference,
              status: "queued" as const,
              ...totals,
              submitted_at: submittedAt.toISOString(),
              estimated_completion_time: estimatedCompletion(submittedAt, ingest.totalItems),
              webhook_url: await subscriptionRepo.firstActiveUrl(tx, actor.tenantId),
              message: "Batch accepted for analysis; progress is sent to the claims subscriptions",
            },
          };
        }),
      {
        claims_batches_reference_key: () =>
          new AppError("BATCH_REFERENCE_TAKEN", `batch_reference_id ${batchReference} is already used`),
      },
    );
  } catch (error) {
    await spool.abort();
    throw error;
  }
}

/** the upload read into the spool; a failed or too large one leaves nothing spooled */
async function spooledUpload(
  upload: { body: Readable; gzip: boolean },
  settings: BatchSettings,
  spool: SpoolWriter,
): Promise<IngestOutcome> {
  try {
    return await ingestBatch(upload.body, {
      gzip: upload.gzip,
      spool,
      maxUploadBytes: settings.maxUploadBytes,
      maxJsonBytes: settings.maxJsonBytes,
      maxInflateRatio: settings.maxInflateRatio,
      maxClaimBytes: settings.maxClaimBytes,
      checkThreads: settings.checkThreads,
    });
  } catch (error) {
    await spool.abort();
    if (error instanceof UploadTooLarge) throw new AppError("BATCH_TOO_LARGE", error.message);
    throw error;
  }
}

/** a refused upload: recorded with its problems and announced, its reference left free for a corrected one */
async function refuse(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  id: string,
  ingest: IngestOutcome,
  reference: string | null,
  submittedAt: Date,
): Promise<RefusedUpload> {
  const more = ingest.problemCount > MAX_SHOWN ? ` (the first ${MAX_SHOWN} are listed)` : "";
  const message = `The batch has ${ingest.problemCount} validation error${ingest.problemCount === 1 ? "" : "s"}${more}`;
  await db.transaction(async (tx) => {
    const batch = await recordBatch(tx, jobs, {
      id,
      tenant_id: actor.tenantId,
      batch_reference_id: reference ?? "",
      description: typeof ingest.root.description === "string" ? ingest.root.description.slice(0, 500) : null,
      start_date: null,
      end_date: null,
      status: "failed",
      accepted: false,
      total_claims: ingest.totalClaims,
      total_items: ingest.totalItems,
      spool_path: null,
      request_id: actor.requestId ?? null,
      error: message,
      error_code: "VALIDATION_ERROR",
      validation_errors: { count: ingest.problemCount, shown: ingest.problems },
    });
    await emitForBatch(tx, jobs, batch, "batch.validation_failed", {
      errors: ingest.problems,
      error_count: ingest.problemCount,
    });
    await recordAudit(tx, actor, {
      action: "claims-batch.submit",
      entityType: "claims-batch",
      entityKey: id,
      outcome: "refused",
      details: { batch_reference_id: reference, errors: ingest.problemCount },
    });
  });
  return {
    accepted: false,
    body: {
      error: { code: "VALIDATION_ERROR", message, details: ingest.problems },
      batch_reference_id: reference,
      timestamp: submittedAt.toISOString(),
    },
  };
}

export async function requireBatch(db: Queryable, tenantId: number, batchId: string): Promise<BatchRow> {
  const batch = await batchRepo.find(db, tenantId, batchId);
  if (batch === undefined || !batch.accepted)
    throw new AppError("BATCH_NOT_FOUND", `Batch ${batchId} not found`);
  return batch;
}

/** the tenant's accepted batches, newest first, a page at a time */
export function listBatches(db: Queryable, tenantId: number, page: { limit: number; offset: number }) {
  return batchRepo.listForTenant(db, tenantId, page);
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** a batch's status and progress as the API shows them (GET /claims/batch/{batch_id}) */
export function batchStatusView(batch: BatchRow) {
  return {
    batch_id: batch.id,
    batch_reference_id: batch.batch_reference_id,
    description: batch.description,
    status: batch.status,
    total_claims: batch.total_claims,
    total_items: batch.total_items,
    processed_claims: batch.processed_claims,
    processing_progress: batch.progress,
    failed_claims: batch.failed_claims,
    summary: batch.summary,
    error: batch.error,
    error_code: batch.error_code,
    submitted_at: batch.submitted_at.toISOString(),
    processed_at: iso(batch.processed_at),
    results_available_until: iso(batch.results_available_until),
  };
}

/** the tenant's claims subscriptions as the API shows them */
export async function listSubscriptions(db: Queryable, tenantId: number) {
  return (await subscriptionRepo.list(db, tenantId)).map(presentSubscription);
}
