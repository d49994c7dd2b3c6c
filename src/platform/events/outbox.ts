import type { Queryable } from "../db/db.js";

/** the spec's webhook hook types an event is delivered to (besides BOTH, which takes CLAIM and PRE_AUTH) */
export type HookType =
  | "CLAIM"
  | "PRE_AUTH"
  | "POLICY"
  | "PRE_AUTH_RESULT"
  | "COMMUNICATION"
  | "REOPENED"
  | "REFERRED";

export interface OutboxEvent {
  hookType: HookType;
  eventType: string;
  data: Record<string, unknown>;
  requestId?: string | undefined;
}

/**
 * Stores an event in the outbox, inside the transaction of the change that causes it: the event exists
 * exactly when the change commits. Delivery to the tenant's webhooks reads the outbox.
 */
export async function emitEvent(tx: Queryable, tenantId: number, event: OutboxEvent): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO events (tenant_id, hook_type, event_type, data, request_id) VALUES ($1, $2, $3, $4, $5)
     RETURNING id`,
    [tenantId, event.hookType, event.eventType, JSON.stringify(event.data), event.requestId ?? null],
  );
  return (rows[0] as { id: string }).id;
}

/** the tenant's events, oldest first (what delivery and tests read) */
export function listEvents(db: Queryable, tenantId: number, hookType?: HookType) {
  return db.query<{ id: string; hook_type: string; event_type: string; data: Record<string, unknown> }>(
    `SELECT id, hook_type, event_type, data FROM events
     WHERE tenant_id = $1 AND ($2::text IS NULL OR hook_type = $2) ORDER BY created_at, id`,
    [tenantId, hookType ?? null],
  );
}
