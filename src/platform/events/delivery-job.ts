import type { WebhookSettings } from "../../config.js";
import { recordAudit } from "../audit/audit.js";
import type { Db, Queryable } from "../db/db.js";
import type { JobContext, JobDefinition, JobQueue } from "../jobs/queue.js";
import { webhookDeliveries } from "../metrics.js";
import {
  type Attempting,
  type DeliveryStatus,
  type DeliveryToAttempt,
  deactivateTarget,
  deliveryReader,
  deliveryRepo,
} from "./deliveries.js";
import { DELIVERY_QUEUE, type DeliveryJobData, deliveryGroup, FHIR_MESSAGE_EVENT } from "./outbox.js";
import { type PostOutcome, postDelivery } from "./post.js";
import { deliveryHeaders } from "./signature.js";
import { type DeliveryTargets, TARGET_COLUMNS } from "./targets.js";

/** the longest wait between two attempts */
const MAX_RETRY_DELAY_MS = 6 * 3600_000;
/** a delivery waiting behind an earlier one of its subject that is being attempted right now looks again after */
const BEHIND_IN_FLIGHT_MS = 1_000;
/** deliveries one process attempts at once (per MIZAN_WORKERS) */
const DELIVERY_SLOTS = 64;
/** of which one tenant's may take at most this many, across every node: its slow receivers wait on its own */
const TENANT_SLOTS = 8;

/**
 * The wait after failed attempt `attempt` (1 = the first): exponential from `firstRetryMs`, doubling,
 * capped at 6 hours, each spread by +-25% so receivers that failed together are not retried together.
 */
export function retryDelayMs(attempt: number, firstRetryMs: number, random: number = Math.random()): number {
  const base = Math.min(firstRetryMs * 2 ** Math.min(attempt - 1, 30), MAX_RETRY_DELAY_MS);
  return Math.round(base * (0.75 + 0.5 * random));
}

/**
 * The body of every attempt, byte for byte: the spec's envelope around the event's data as stored, so a
 * retry carries the same bytes and the same signature input as the first attempt.
 */
export function envelopeOf(
  delivery: Pick<DeliveryToAttempt, "event_type" | "event_id" | "event_created_at" | "data">,
) {
  if (delivery.event_type === FHIR_MESSAGE_EVENT) return delivery.data;
  return `{"event_type":${JSON.stringify(delivery.event_type)},"event_id":${JSON.stringify(delivery.event_id)},"timestamp":${JSON.stringify(delivery.event_created_at.toISOString())},"data":${delivery.data}}`;
}

/** what an attempt's outcome does to its delivery, and when the next attempt is due */
function nextStep(
  outcome: PostOutcome,
  attempt: number,
  firstAttemptAt: Date,
  settings: WebhookSettings,
  now: Date,
): { status: DeliveryStatus; nextAttemptAt: Date | null } {
  if (outcome.error === null) return { status: "delivered", nextAttemptAt: null };
  if (outcome.statusCode === 410) return { status: "failed", nextAttemptAt: null };
  if (now.getTime() - firstAttemptAt.getTime() >= settings.retryWindowSeconds * 1000)
    return { status: "failed", nextAttemptAt: null };
  return {
    status: "pending",
    nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempt, settings.firstRetryMs)),
  };
}

/** what an attempt that did not settle its delivery leads to: the next attempt, or a gone target's end */
async function followUpAttempt(
  tx: Queryable,
  jobs: JobQueue,
  { delivery, kind }: Attempting,
  job: DeliveryJobData,
  statusCode: number | null,
  nextAttemptAt: Date | null,
): Promise<void> {
  if (nextAttemptAt !== null)
    await jobs.send(
      tx,
      DELIVERY_QUEUE,
      { ...job, attempt: job.attempt + 1 },
      { startAfter: nextAttemptAt, ...deliveryGroup(job) },
    );
  // a 410 answer: the target is gone and receives nothing more
  if (
    statusCode === 410 &&
    (await deactivateTarget(tx, kind, delivery.tenant_id, delivery.target_id, "gone"))
  ) {
    await recordAudit(
      tx,
      { tenantId: delivery.tenant_id, actor: "webhook delivery", requestId: job.requestId },
      {
        action: "webhook.deactivate",
        entityType: kind.entityType,
        entityKey: delivery.target_id,
        outcome: "gone",
        details: { event_id: delivery.event_id, status_code: 410 },
      },
    );
  }
}

async function recordOutcome(
  context: JobContext,
  attempting: Attempting,
  job: DeliveryJobData,
  attemptedAt: Date,
  outcome: PostOutcome,
  settings: WebhookSettings,
): Promise<void> {
  const { delivery, kind } = attempting;
  const now = new Date();
  const step = nextStep(outcome, job.attempt, delivery.first_attempt_at ?? attemptedAt, settings, now);
  const attempt = { attempt: job.attempt, attemptedAt, ...outcome, nextAttemptAt: step.nextAttemptAt };
  const settled = step.nextAttemptAt === null && outcome.statusCode !== 410;
  // the usual outcome is one UPDATE, atomic by itself: a transaction would hold the embedded database's
  // one session for a round trip more
  if (settled) await deliveryRepo.recordAttempt(context.db, delivery.id, attempt, step.status);
  else
    await context.db.transaction(async (tx) => {
      // false: another run of this job recorded the attempt that moves the delivery
      if (await deliveryRepo.recordAttempt(tx, delivery.id, attempt, step.status))
        await followUpAttempt(tx, context.jobs, attempting, job, outcome.statusCode, step.nextAttemptAt);
    });
  webhookDeliveries.inc({
    target: TARGET_COLUMNS[kind.column].name,
    outcome: step.status === "pending" ? "retry" : outcome.statusCode === 410 ? "gone" : step.status,
  });
  const log = { delivery: delivery.id, event: delivery.event_id, attempt: job.attempt, ...outcome };
  if (step.status === "delivered") context.log.debug(log, "webhook delivered");
  else
    context.log.warn(
      { ...log, status: step.status, nextAttemptAt: step.nextAttemptAt },
      "webhook attempt failed",
    );
}

/**
 * One attempt of one delivery. A job that no longer matches its delivery (the attempt was recorded by an
 * earlier run, the delivery settled or the webhook went inactive) does nothing; a crash before the
 * attempt is recorded leaves the delivery as it was, and pg-boss runs the job again.
 */
async function attemptDelivery(
  job: DeliveryJobData,
  context: JobContext,
  settings: WebhookSettings,
  read: ReturnType<typeof deliveryReader>,
) {
  const { db } = context;
  const attempting = await read(db, job.deliveryId);
  if (attempting === undefined) return;
  const { delivery } = attempting;
  if (delivery.status !== "pending" || delivery.attempts !== job.attempt - 1) return;
  if (!delivery.target_active) return deliveryRepo.cancel(db, delivery.id);
  if (delivery.earlier_due !== null) {
    // an earlier event of the same subject is still to reach this target: wait behind it
    const startAfter = new Date(Math.max(delivery.earlier_due.getTime(), Date.now()) + BEHIND_IN_FLIGHT_MS);
    await context.jobs.send(db, DELIVERY_QUEUE, job, { startAfter, ...deliveryGroup(job) });
    return;
  }
  if (context.attempt > 0) await deliveryRepo.recordInterrupted(db, delivery.id, job.attempt);
  const body = envelopeOf(delivery);
  const attemptedAt = new Date();
  const headers = deliveryHeaders(
    delivery.target_secret,
    delivery.event_id,
    Math.floor(attemptedAt.getTime() / 1000),
    body,
    delivery.event_type === FHIR_MESSAGE_EVENT ? "application/fhir+json" : "application/json",
  );
  const outcome = await postDelivery(new URL(delivery.target_url), body, headers, {
    timeoutMs: settings.timeoutMs,
    allowPrivate: settings.allowPrivate,
  });
  await recordOutcome(context, attempting, job, attemptedAt, outcome, settings);
}

/** marks a delivery failed when its job itself kept failing (not the receiver: the database, say) */
async function giveUpDelivery(db: Db, job: DeliveryJobData) {
  await db.transaction(async (tx) => {
    await deliveryRepo.recordAttempt(
      tx,
      job.deliveryId,
      {
        attempt: job.attempt,
        attemptedAt: new Date(),
        statusCode: null,
        latencyMs: 0,
        // the tenant reads this: the error itself (tables, hosts) stays in the log, where the runner put it
        error: "internal error: the delivery could not be attempted",
        nextAttemptAt: null,
      },
      "failed",
    );
  });
}

/**
 * Delivers events to their targets, of the `kinds` the modules give (docs/operator-contract.md section 7).
 * Deliveries of one subject to one target are attempted in the order the events were emitted; everything
 * else runs concurrently, each delivery in a slot of its own, a tenant's in at most TENANT_SLOTS of them: a
 * receiver that hangs delays only its tenant's deliveries, never another tenant's.
 */
export function eventDeliveryJob(
  settings: WebhookSettings,
  kinds: readonly DeliveryTargets[],
): JobDefinition<DeliveryJobData> {
  const read = deliveryReader(kinds);
  return {
    queue: DELIVERY_QUEUE,
    // these retries are for the job itself failing (a database error, a worker that died mid-attempt);
    // a receiver's failures are retried by the delivery's own schedule, each attempt a new job
    retryLimit: 10,
    retryDelaySeconds: 1,
    heartbeatSeconds: 10,
    pool: { slots: DELIVERY_SLOTS, perGroup: TENANT_SLOTS },
    // a receiver learns of an event as it commits, not up to a poll later
    startsAtOnce: true,
    orderOf: (data) =>
      data.subject === null ? undefined : { key: `${data.target}|${data.subject}`, position: data.seq },
    handle: (data, context) => attemptDelivery(data, context, settings, read),
    giveUp: (data, _error, context) => giveUpDelivery(context.db, data),
  };
}
