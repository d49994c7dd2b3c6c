import type { Queryable } from "../../platform/db/db.js";

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
