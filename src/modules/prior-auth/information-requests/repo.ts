import type { Queryable } from "../../../platform/db/db.js";

export interface InformationRequestRow {
  id: number;
  reviewer: string;
  content: string;
  erp_item_ids: string[];
  created_at: Date;
}

/** a reviewer's requests for information from the provider (information_requests) */
export const informationRequestRepo = {
  async insert(
    tx: Queryable,
    tenantId: number,
    priorAuthId: number,
    request: { reviewer: string; content: string; erpItemIds: readonly string[] },
  ): Promise<{ id: number; created_at: Date }> {
    const rows = await tx.query<{ id: number; created_at: Date }>(
      `INSERT INTO information_requests (tenant_id, prior_authorization_id, reviewer, content, erp_item_ids)
       VALUES ($1, $2, $3, $4, $5) RETURNING id, created_at`,
      [tenantId, priorAuthId, request.reviewer, request.content, JSON.stringify(request.erpItemIds)],
    );
    const row = rows[0];
    if (row === undefined) throw new Error("INSERT ... RETURNING answered no row");
    return row;
  },

  list(db: Queryable, priorAuthId: number): Promise<InformationRequestRow[]> {
    return db.query<InformationRequestRow>(
      `SELECT id, reviewer, content, erp_item_ids, created_at FROM information_requests
       WHERE prior_authorization_id = $1 ORDER BY id`,
      [priorAuthId],
    );
  },
};
