import type { Queryable } from "../db/db.js";
import type { JobQueue } from "../jobs/queue.js";

/** the spec's webhook hook types */
export const HOOK_TYPES = [
  "CLAIM",
  "PRE_AUTH",
  "BOTH",
  "POLICY",
  "PRE_AUTH_RESULT",
  "COMMUNICATION",
  "REOPENED",
  "REFERRED",
  "NPHIES",
] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/**
 * the hook types an event is emitted under (CLAIM, PRE_AUTH and BOTH select by the request's transaction
 * type; PING is the test event, sent to one webhook)
 */
export type EventHookType = Exclude<HookType, "CLAIM" | "PRE_AUTH" | "BOTH"> | "PING" | "CLAIMS_BATCH";

export const DELIVERY_QUEUE = "event-delivery";

/**
 * The event type of a FHIR response message for the payer's NPHIES endpoint (a webhook of hook type
 * NPHIES): its delivery body is the Bundle itself, `application/fhir+json`, not the webhook envelope.
 */
export const FHIR_MESSAGE_EVENT = "NPHIES_RESPONSE";

export interface OutboxEvent {
  hookType: EventHookType;
  eventType: string;
  data: object;
  /**
   * What the event is about (`prior-auth:<transaction_id>`, `batch:<id>`): events of one subject reach
   * each webhook in the order they were emitted. Omitted: no ordering with other events.
   */
  subject?: string;
  /** a prior-authorization event's transaction type: PRE_AUTH (PREAUTH) or CLAIM webhooks, and BOTH, also get it */
  transactionType?: "PREAUTH" | "CLAIM";
  requestId?: string | undefined;
}

/** the job that delivers one event to one target; `attempt` is the attempt it makes (1 first) */
export interface DeliveryJobData {
  deliveryId: number;
  attempt: number;
  /** `w:<webhook id>` or `s:<subscription id>`: deliveries of one subject to one target keep their order */
  target: string;
  subject: string | null;
  seq: number;
  /** the tenant: the job queue's group, so one tenant's deliveries take a bounded share of the workers */
  tenant?: number;
  requestId?: string;
}

/** the webhooks' hook types that receive an event */
export function audienceOf(event: Pick<OutboxEvent, "hookType" | "transactionType">): string[] {
  if (event.transactionType === undefined) return [event.hookType];
  return [event.hookType, event.transactionType === "CLAIM" ? "CLAIM" : "PRE_AUTH", "BOTH"];
}

/**
 * Stores the event and a delivery row per chosen target, in one statement, then enqueues the job that
 * makes each delivery's first attempt. `targets` is a SELECT of (webhook_id, subscription_id) pairs over
 * the tenant's active targets, with $1 the tenant and $5 its parameter.
 */
async function storeEvent(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  event: OutboxEvent,
  targets: { select: string; param: unknown },
): Promise<{ eventId: string; deliveryIds: number[] }> {
  const rows = await tx.query<{
    event_id: string;
    seq: number;
    id: number | null;
    webhook_id: number | null;
    subscription_id: string | null;
  }>(
    `WITH e AS (
       INSERT INTO events (tenant_id, hook_type, event_type, data, subject, request_id)
       VALUES ($1, $2, $3, $4, $6, $7) RETURNING id, seq),
     d AS (
       INSERT INTO event_deliveries (tenant_id, event_id, event_seq, subject, webhook_id, subscription_id)
       SELECT $1, e.id, e.seq, $6, t.webhook_id, t.subscription_id FROM e, (${targets.select}) AS t
       RETURNING id, webhook_id, subscription_id)
     SELECT e.id AS event_id, e.seq, d.id, d.webhook_id, d.subscription_id FROM e LEFT JOIN d ON true
     ORDER BY d.id`,
    [
      tenantId,
      event.hookType,
      event.eventType,
      JSON.stringify(event.data),
      targets.param,
      event.subject ?? null,
      event.requestId ?? null,
    ],
  );
  const first = rows[0] as { event_id: string; seq: number };
  const deliveries = rows.filter((row) => row.id !== null);
  await Promise.all(
    deliveries.map((delivery) => {
      const data: DeliveryJobData = {
        deliveryId: delivery.id as number,
        attempt: 1,
        target: delivery.webhook_id === null ? `s:${delivery.subscription_id}` : `w:${delivery.webhook_id}`,
        subject: event.subject ?? null,
        seq: first.seq,
        tenant: tenantId,
        ...(event.requestId === undefined ? {} : { requestId: event.requestId }),
      };
      return jobs.send(tx, DELIVERY_QUEUE, data, { group: `tenant:${tenantId}` });
    }),
  );
  return { eventId: first.event_id, deliveryIds: deliveries.map((delivery) => delivery.id as number) };
}

/** the tenant's active webhooks that `where` picks */
const webhooksWhere = (where: string) =>
  `SELECT w.id AS webhook_id, NULL::uuid AS subscription_id FROM webhooks w
   WHERE w.tenant_id = $1 AND w.is_active AND ${where} ORDER BY w.id`;

/**
 * Stores an event and its deliveries to the tenant's active webhooks of a matching hook type, inside
 * the transaction of the change that causes it: the event and its delivery jobs exist exactly when the
 * change commits. Every module emits through this.
 */
export async function emitEvent(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  event: OutboxEvent,
): Promise<string> {
  const stored = await storeEvent(tx, jobs, tenantId, event, {
    // one text, not an array, so the embedded database can run the statement prepared
    select: webhooksWhere("w.hook_type = ANY(string_to_array($5, ','))"),
    param: audienceOf(event).join(","),
  });
  return stored.eventId;
}

/** an event for one webhook only, whatever its hook type (the signed test ping) */
export async function emitEventTo(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  webhookId: number,
  event: OutboxEvent,
): Promise<{ eventId: string; deliveryId: number | undefined }> {
  const stored = await storeEvent(tx, jobs, tenantId, event, {
    select: webhooksWhere("w.id = $5::integer"),
    param: webhookId,
  });
  return { eventId: stored.eventId, deliveryId: stored.deliveryIds[0] };
}

/**
 * A batch claims event (`batch.queued` …) to the tenant's active claims subscriptions that list it;
 * `batch.processing_update` also reaches those that list `batch.processing`. The envelope is the same.
 */
export async function emitBatchEvent(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  event: {
    eventType: string;
    batchId: string;
    data: Record<string, unknown>;
    requestId?: string | undefined;
  },
): Promise<string> {
  const outboxEvent: OutboxEvent = {
    hookType: "CLAIMS_BATCH",
    eventType: event.eventType,
    data: event.data,
    subject: `batch:${event.batchId}`,
    requestId: event.requestId,
  };
  const names =
    event.eventType === "batch.processing_update" ? [event.eventType, "batch.processing"] : [event.eventType];
  const stored = await storeEvent(tx, jobs, tenantId, outboxEvent, {
    select: `SELECT NULL::integer AS webhook_id, s.id AS subscription_id FROM claims_subscriptions s
             WHERE s.tenant_id = $1 AND s.status = 'active'
               AND s.events && string_to_array($5, ',') ORDER BY s.created_at, s.id`,
    param: names.join(","),
  });
  return stored.eventId;
}

/** the tenant's events, oldest first */
export function listEvents(db: Queryable, tenantId: number, hookType?: EventHookType) {
  return db.query<{ id: string; hook_type: string; event_type: string; data: Record<string, unknown> }>(
    `SELECT id, hook_type, event_type, data FROM events
     WHERE tenant_id = $1 AND ($2::text IS NULL OR hook_type = $2) ORDER BY seq`,
    [tenantId, hookType ?? null],
  );
}
