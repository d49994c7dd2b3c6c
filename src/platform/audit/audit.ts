import type { Queryable } from "../db/db.js";

/** who acts and on whose behalf: carried from the request (or CLI) into every domain function */
export interface Actor {
  /** undefined for actions above tenants (the operator creating one) */
  tenantId: number | undefined;
  /** `api-key:<id>`, `admin`, `cli`, `bootstrap` */
  actor: string;
  requestId: string | undefined;
}

/** an actor inside one tenant: what every tenant-scoped domain function takes first */
export interface TenantActor extends Actor {
  tenantId: number;
}

export interface AuditEntry {
  action: string;
  entityType: string;
  entityKey: string;
  outcome?: string;
  details?: Record<string, unknown>;
}

/**
 * Appends one row to the audit log. Call it inside the transaction of the change it records, so the
 * change and its record commit or fail together. The table refuses UPDATE and DELETE.
 */
export async function recordAudit(tx: Queryable, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.query(
    `INSERT INTO audit_log (tenant_id, actor, action, entity_type, entity_key, request_id, outcome, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      actor.tenantId ?? null,
      actor.actor,
      entry.action,
      entry.entityType,
      entry.entityKey,
      actor.requestId ?? null,
      entry.outcome ?? "success",
      entry.details === undefined ? null : JSON.stringify(entry.details),
    ],
  );
}

export interface AuditRecord {
  at: Date;
  actor: string;
  action: string;
  entity_type: string;
  entity_key: string;
  request_id: string | null;
  outcome: string;
  details: Record<string, unknown> | null;
}

export function listAuditForEntity(db: Queryable, tenantId: number, entityType: string, entityKey: string) {
  return db.query<AuditRecord>(
    `SELECT at, actor, action, entity_type, entity_key, request_id, outcome, details FROM audit_log
     WHERE tenant_id = $1 AND entity_type = $2 AND entity_key = $3 ORDER BY id`,
    [tenantId, entityType, entityKey],
  );
}
