import type { Queryable } from "../../platform/db/db.js";
import { audienceOf, HOOK_TYPES, type HookType } from "../../platform/events/outbox.js";
import type { DeliveryTargets } from "../../platform/events/targets.js";

export interface WebhookRow {
  id: number;
  webhook_url: string;
  hook_type: string;
  secret_token: string | null;
  is_active: boolean;
  created_at: Date;
}

const COLUMNS = "id, webhook_url, hook_type, secret_token, is_active, created_at";

export const webhookRepo = {
  async insert(
    tx: Queryable,
    tenantId: number,
    webhook: Pick<WebhookRow, "webhook_url" | "hook_type" | "secret_token">,
  ): Promise<WebhookRow> {
    const rows = await tx.query<WebhookRow>(
      `INSERT INTO webhooks (tenant_id, webhook_url, hook_type, secret_token) VALUES ($1, $2, $3, $4)
       RETURNING ${COLUMNS}`,
      [tenantId, webhook.webhook_url, webhook.hook_type, webhook.secret_token],
    );
    return rows[0] as WebhookRow;
  },

  findAll(db: Queryable, tenantId: number): Promise<WebhookRow[]> {
    return db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE tenant_id = $1 ORDER BY id`, [
      tenantId,
    ]);
  },

  async findById(db: Queryable, tenantId: number, id: number): Promise<WebhookRow | undefined> {
    const rows = await db.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0];
  },
};

/**
 * Webhooks as targets of events: a webhook receives the events of its hook type (and PRE_AUTH, CLAIM and
 * BOTH webhooks the prior-authorization events of their transaction type), until it is deactivated.
 */
export const webhookTargets: DeliveryTargets = {
  column: "webhook_id",
  entityType: "webhook",
  // one text, not an array, so the embedded database can run the statement prepared
  receives: (event) =>
    HOOK_TYPES.includes(event.hookType as HookType) ? audienceOf(event).join(",") : undefined,
  selectReceivers: (hookTypes) =>
    `SELECT id FROM webhooks WHERE tenant_id = $1 AND is_active AND hook_type = ANY(string_to_array(${hookTypes}, ','))
     ORDER BY id`,
  selectOne: (id) => `SELECT id FROM webhooks WHERE tenant_id = $1 AND is_active AND id = ${id}::integer`,
  selectAddress: (id) =>
    `SELECT webhook_url AS url, secret_token AS secret, is_active AS active FROM webhooks WHERE id = ${id}`,
  async deactivate(tx, tenantId, id, reason) {
    const changed = await tx.query(
      `UPDATE webhooks SET is_active = false, deactivated_at = now(), deactivated_reason = $3
       WHERE tenant_id = $1 AND id = $2 AND is_active RETURNING id`,
      [tenantId, id, reason],
    );
    return changed.length > 0;
  },
};
