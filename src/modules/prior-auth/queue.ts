import type { Queryable } from "../../platform/db/db.js";

/** what a reviewer filters the queue by; every field optional */
export interface QueueFilter {
  status?: "PENDING" | "REFERRED" | undefined;
  provider?: string | undefined;
  member?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  minScore?: number | undefined;
  limit: number;
}

export interface QueueEntry {
  transaction_id: string;
  status: string;
  member_id: string;
  provider_cchi_no: string;
  treatment_date: Date;
  claim_type: string;
  items: number;
  held: number;
  max_score: number;
  requested: string;
}

/**
 * The requests that wait for a reviewer: referred ones, and pending ones with an item held for review
 * (PENDING_REVIEW), oldest first, with the counts of each kind under the same filters.
 */
export async function listReviewQueue(db: Queryable, tenantId: number, filter: QueueFilter) {
  const where = `pa.tenant_id = $1
    AND (pa.status = 'REFERRED' OR (pa.status = 'PENDING' AND EXISTS (
      SELECT 1 FROM prior_authorization_items h WHERE h.prior_authorization_id = pa.id AND h.outcome = 'PENDING_REVIEW')))
    AND ($2::text IS NULL OR pa.status = $2)
    AND ($3::text IS NULL OR pa.provider_cchi_no = $3)
    AND ($4::text IS NULL OR pa.request->>'member_id' = $4)
    AND ($5::date IS NULL OR pa.treatment_date >= $5::date)
    AND ($6::date IS NULL OR pa.treatment_date < $6::date + 1)`;
  const params = [
    tenantId,
    filter.status ?? null,
    filter.provider || null,
    filter.member || null,
    filter.from || null,
    filter.to || null,
  ];
  const [entries, counts] = await Promise.all([
    db.query<QueueEntry>(
      `SELECT * FROM (
         SELECT pa.transaction_id, pa.status, pa.request->>'member_id' AS member_id, pa.provider_cchi_no,
           pa.treatment_date, pa.request->>'claim_type' AS claim_type, count(i.id)::int AS items,
           count(i.id) FILTER (WHERE i.outcome = 'PENDING_REVIEW')::int AS held,
           COALESCE(max(i.ai_score), 0)::float8 AS max_score, sum(i.request_amount)::text AS requested, pa.created_at
         FROM prior_authorizations pa JOIN prior_authorization_items i ON i.prior_authorization_id = pa.id
         WHERE ${where}
         GROUP BY pa.id) q
       WHERE $7::float8 IS NULL OR q.max_score >= $7
       ORDER BY q.created_at, q.transaction_id LIMIT $8`,
      [...params, filter.minScore ?? null, filter.limit],
    ),
    db.query<{ status: string; count: number }>(
      `SELECT pa.status, count(*)::int AS count FROM prior_authorizations pa WHERE ${where} GROUP BY pa.status`,
      params,
    ),
  ]);
  return {
    entries,
    counts: {
      PENDING: counts.find((row) => row.status === "PENDING")?.count ?? 0,
      REFERRED: counts.find((row) => row.status === "REFERRED")?.count ?? 0,
    },
  };
}
