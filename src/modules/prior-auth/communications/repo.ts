import type { Queryable } from "../../../platform/db/db.js";
import type { CommunicationInput } from "./schemas.js";

export interface CommunicationRow {
  id: number;
  user_name: string | null;
  title: string | null;
  content: string | null;
  path: string | null;
  size: string | null;
  sent_at: Date | null;
  created_at: Date;
}

export const communicationRepo = {
  async insert(
    tx: Queryable,
    tenantId: number,
    priorAuthId: number,
    input: CommunicationInput,
  ): Promise<number> {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO communications (tenant_id, prior_authorization_id, user_name, title, content, path, size, sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        tenantId,
        priorAuthId,
        input.user_name ?? null,
        input.title ?? null,
        input.content ?? null,
        input.path ?? null,
        input.size ?? null,
        input.date ?? null,
      ],
    );
    return (rows[0] as { id: number }).id;
  },

  list(db: Queryable, priorAuthId: number): Promise<CommunicationRow[]> {
    return db.query<CommunicationRow>(
      `SELECT id, user_name, title, content, path, size, sent_at, created_at FROM communications
       WHERE prior_authorization_id = $1 ORDER BY id`,
      [priorAuthId],
    );
  },
};
