import type { Queryable } from "../db/db.js";
import type { JobQueue } from "../jobs/queue.js";
import { type DeliveryTargets, TARGET_COLUMN_NAMES, TARGET_COLUMNS, wiredTargets } from "./targets.js";

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
  /** `<kind's key>:<target id>` (`w:7` a webhook): deliveries of one subject to one target keep their order */
  target: string;
  subject: string | null;
  seq: number;
  /** the tenant: the job queue's group, so one tenant's deliveries take a bounded share of the workers */
  tenant?: number;
  requestId?: string;
}

/** the job queue's group of a delivery: its tenant (jobs enqueued before there were groups have none) */
export function deliveryGroup(job: Pick<DeliveryJobData, "tenant">): { group?: string } {
  return job.tenant === undefined ? {} : { group: `tenant:${job.tenant}` };
}

/** the webhooks' hook types that receive an event */
export function audienceOf(event: Pick<OutboxEvent, "hookType" | "transactionType">): string[] {
  if (event.transactionType === undefined) return [event.hookType];
  return [event.hookType, event.transactionType === "CLAIM" ? "CLAIM" : "PRE_AUTH", "BOTH"];
}

/** the targets of one kind an event goes to: `select` picks them by `value`, given its placeholder */
interface Receivers {
  kind: DeliveryTargets;
  select: (param: string) => string;
  value: unknown;
}

/** the chosen targets as (webhook_id, subscription_id, ...) rows, each kind filling its own column */
function targetRows(receivers: readonly Receivers[], firstParam: number): string {
  const columns = Object.entries(TARGET_COLUMNS);
  const rowsOf = (receiver: Receivers | undefined, index: number) => {
    const values = columns.map(([column, { type }]) =>
      column === receiver?.kind.column ? `r.id AS ${column}` : `NULL::${type} AS ${column}`,
    );
    return receiver === undefined
      ? `SELECT ${values.join(", ")} WHERE false`
      : `SELECT ${values.join(", ")} FROM (${receiver.select(`$${firstParam + index}`)}) AS r`;
  };
  return receivers.length === 0 ? rowsOf(undefined, 0) : receivers.map(rowsOf).join(" UNION ALL ");
}

/**
 * Stores the event and a delivery row per chosen target, in one statement, then enqueues the job that
 * makes each delivery's first attempt.
 */
async function storeEvent(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  event: OutboxEvent,
  receivers: readonly Receivers[],
): Promise<{ eventId: string; deliveryIds: number[] }> {
  const rows = await tx.query<{ event_id: string; seq: number; id: number | null } & Record<string, unknown>>(
    `WITH e AS (
       INSERT INTO events (tenant_id, hook_type, event_type, data, subject, request_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, seq),
     d AS (
       INSERT INTO event_deliveries (tenant_id, event_id, event_seq, subject, ${TARGET_COLUMN_NAMES.join(", ")})
       SELECT $1, e.id, e.seq, $5, ${TARGET_COLUMN_NAMES.map((column) => `t.${column}`).join(", ")}
       FROM e, (${targetRows(receivers, 7)}) AS t
       RETURNING id, ${TARGET_COLUMN_NAMES.join(", ")})
     SELECT e.id AS event_id, e.seq, d.* FROM e LEFT JOIN d ON true ORDER BY d.id`,
    [
      tenantId,
      event.hookType,
      event.eventType,
      JSON.stringify(event.data),
      event.subject ?? null,
      event.requestId ?? null,
      ...receivers.map((receiver) => receiver.value),
    ],
  );
  const first = rows[0] as { event_id: string; seq: number };
  const deliveries = rows.filter((row) => row.id !== null);
  await Promise.all(
    deliveries.map((delivery) => {
      const { kind } = receivers.find((receiver) => delivery[receiver.kind.column] !== null) as Receivers;
      const data: DeliveryJobData = {
        deliveryId: delivery.id as number,
        attempt: 1,
        target: `${TARGET_COLUMNS[kind.column].key}:${delivery[kind.column]}`,
        subject: event.subject ?? null,
        seq: first.seq,
        tenant: tenantId,
        ...(event.requestId === undefined ? {} : { requestId: event.requestId }),
      };
      return jobs.send(tx, DELIVERY_QUEUE, data, deliveryGroup(data));
    }),
  );
  return { eventId: first.event_id, deliveryIds: deliveries.map((delivery) => delivery.id as number) };
}

/**
 * Stores an event and its deliveries to the tenant's active targets that receive it (webhooks of a
 * matching hook type, claims subscriptions listing it: each kind of target decides), inside the
 * transaction of the change that causes it: the event and its delivery jobs exist exactly when the
 * change commits. Every module emits through this.
 */
export async function emitEvent(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  event: OutboxEvent,
): Promise<string> {
  const stored = await storeEvent(tx, jobs, tenantId, event, receiversOf(event));
  return stored.eventId;
}

/** what picks an event's receivers */
export type EventAudience = Pick<OutboxEvent, "hookType" | "eventType" | "transactionType">;

/** the kinds of target that receive events like `audience`, each with the value it selects them by */
function receiversOf(audience: EventAudience): Receivers[] {
  return wiredTargets().flatMap((kind) => {
    const value = kind.receives(audience);
    return value === undefined
      ? []
      : [{ kind, select: (param: string) => kind.selectReceivers(param), value }];
  });
}

/**
 * Whether any of the tenant's active targets receives events like `audience` now. A change that finds
 * none need not emit its event: stored, it would get no delivery and only wait for the purge
 * (retention.ts). No delivery job then follows the change's writes, which can go with the COMMIT
 * (`Transaction.commitWith`). A target registered between the check and the commit misses that one
 * event, as if registered after the change.
 */
export async function hasReceivers(
  tx: Queryable,
  tenantId: number,
  audience: EventAudience,
): Promise<boolean> {
  const receivers = receiversOf(audience);
  if (receivers.length === 0) return false;
  const rows = await tx.query<{ found: boolean }>(`SELECT EXISTS (${targetRows(receivers, 2)}) AS found`, [
    tenantId,
    ...receivers.map((receiver) => receiver.value),
  ]);
  return rows[0]?.found === true;
}

/** an event for one active target only, whatever it would otherwise receive (the signed test ping) */
export async function emitEventTo(
  tx: Queryable,
  jobs: JobQueue,
  tenantId: number,
  target: { kind: DeliveryTargets; id: number | string },
  event: OutboxEvent,
): Promise<{ eventId: string; deliveryId: number | undefined }> {
  const stored = await storeEvent(tx, jobs, tenantId, event, [
    { kind: target.kind, select: (param) => target.kind.selectOne(param), value: target.id },
  ]);
  return { eventId: stored.eventId, deliveryId: stored.deliveryIds[0] };
}

/** the tenant's events, oldest first */
export function listEvents(db: Queryable, tenantId: number, hookType?: EventHookType) {
  return db.query<{ id: string; hook_type: string; event_type: string; data: Record<string, unknown> }>(
    `SELECT id, hook_type, event_type, data FROM events
     WHERE tenant_id = $1 AND ($2::text IS NULL OR hook_type = $2) ORDER BY seq`,
    [tenantId, hookType ?? null],
  );
}
