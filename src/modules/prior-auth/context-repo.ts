import { halalasOf } from "../../engine/money.js";
import type { HistoryItem, PeerStats, ServiceType } from "../../engine/prior-auth/types.js";
import { TtlCache } from "../../platform/cache.js";
import type { Queryable } from "../../platform/db/db.js";

/** how far back the member's history is read for duplicates, follow-ups and activity */
const HISTORY_DAYS = 365;
/** the most recent approved items of a service code that its peer statistics are computed over */
const PEER_WINDOW = 500;
/** the rare-pair signal grows with history up to 5,000 requests; counting stops there */
const PAIR_TOTAL_CAP = 5_000;
/** peer groups this large are recomputed at most once a minute */
const PEERS_CACHED = 50;
const PEER_CACHE = new TtlCache<PeerStats | null>(60_000);
const PAIR_TOTALS = new TtlCache<number>(60_000);

/** what the engine reads besides the request, the member and the coverage: SQL over past requests */
export const contextRepo = {
  /**
   * The member's past items: loaded history and the platform's own earlier requests (not this one, not
   * cancelled ones), from a year before the treatment date to it.
   */
  async history(
    db: Queryable,
    tenantId: number,
    member: { pk: number | undefined; memberId: string },
    treatmentDate: Date,
    exceptPriorAuthId: number | null,
  ): Promise<HistoryItem[]> {
    const rows = await db.query<{
      date: Date;
      service_code: string;
      nphies_code: string | null;
      service_type: string | null;
      quantity: number;
      unit_amount: string | null;
      provider_cchi_no: string | null;
      diagnosis_codes: string[];
      approved: boolean;
      reference: string;
      authorization_number: string | null;
      transaction_type: "PREAUTH" | "CLAIM" | null;
    }>(
      `SELECT pa.treatment_date AS date, i.service_code, i.item->>'nphies_code' AS nphies_code, i.service_type,
         i.claimed_quantity AS quantity, i.claimed_amount::text AS unit_amount, pa.provider_cchi_no,
         ARRAY[pa.primary_diagnosis] AS diagnosis_codes, i.approved, pa.transaction_id AS reference,
         pa.authorization_number, pa.transaction_type
       FROM prior_authorizations pa JOIN prior_authorization_items i ON i.prior_authorization_id = pa.id
       WHERE pa.tenant_id = $1 AND pa.member_pk = $2 AND pa.id <> $3 AND pa.status <> 'CANCELLED'
         AND pa.treatment_date BETWEEN $4::timestamptz - make_interval(days => $6) AND $4::timestamptz
       UNION ALL
       SELECT h.service_date, e.service_code, e.nphies_code, e.service_type, COALESCE(e.quantity, 1),
         e.unit_amount::text, h.provider_cchi_no, h.diagnosis_codes, h.approved, h.reference, NULL, NULL
       FROM member_history h
       CROSS JOIN LATERAL json_to_recordset(h.items)
         AS e (service_code text, nphies_code text, service_type text, quantity integer, unit_amount numeric)
       WHERE h.tenant_id = $1 AND h.member_id = $5
         AND h.service_date BETWEEN $4::timestamptz - make_interval(days => $6) AND $4::timestamptz`,
      [tenantId, member.pk ?? 0, exceptPriorAuthId ?? 0, treatmentDate, member.memberId, HISTORY_DAYS],
    );
    return rows.map((row) => ({
      date: row.date,
      serviceCode: row.service_code,
      nphiesCode: row.nphies_code,
      serviceType: row.service_type as ServiceType | null,
      quantity: row.quantity,
      unitAmount: row.unit_amount === null ? null : halalasOf(row.unit_amount),
      providerCchiNo: row.provider_cchi_no,
      diagnosisCodes: row.diagnosis_codes.filter((code) => code !== null),
      approved: row.approved,
      reference: row.reference,
      ...(row.authorization_number === null || row.transaction_type === null
        ? {}
        : { authorization: { number: row.authorization_number, transactionType: row.transaction_type } }),
    }));
  },

  /**
   * Robust statistics of the tenant's recent approved items of each service code (unit amounts in
   * halalas). A code with PEERS_CACHED approved items or more changes little with one more, so its
   * figures are kept for a minute; smaller groups are computed on every request.
   */
  async peers(
    db: Queryable,
    tenantId: number,
    serviceCodes: readonly string[],
  ): Promise<Map<string, PeerStats>> {
    const result = new Map<string, PeerStats>();
    const missing: string[] = [];
    for (const code of new Set(serviceCodes)) {
      const cached = PEER_CACHE.get(`${tenantId}|${code}`);
      if (cached === undefined) missing.push(code);
      else if (cached !== null) result.set(code, cached);
    }
    if (missing.length === 0) return result;
    const rows = await db.query<{
      service_code: string;
      n: number;
      median_unit: number;
      mad_unit: number;
      median_qty: number;
      mad_qty: number;
    }>(
      `WITH x AS (
         SELECT c.code AS service_code, p.unit, p.qty
         FROM json_array_elements_text($2::json) AS c (code)
         CROSS JOIN LATERAL (
           SELECT claimed_amount * 100 AS unit, claimed_quantity AS qty FROM prior_authorization_items
           WHERE tenant_id = $1 AND service_code = c.code AND approved ORDER BY id DESC LIMIT $3) p),
       m AS (
         SELECT service_code, count(*)::int AS n,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY unit) AS median_unit,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY qty) AS median_qty
         FROM x GROUP BY service_code)
       SELECT m.service_code, m.n, m.median_unit, m.median_qty,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(x.unit - m.median_unit)) AS mad_unit,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(x.qty - m.median_qty)) AS mad_qty
       FROM x JOIN m USING (service_code)
       GROUP BY m.service_code, m.n, m.median_unit, m.median_qty`,
      [tenantId, JSON.stringify(missing), PEER_WINDOW],
    );
    const found = new Map(rows.map((row) => [row.service_code, row]));
    for (const code of missing) {
      const row = found.get(code);
      const stats =
        row === undefined
          ? null
          : {
              count: row.n,
              medianUnitAmount: Number(row.median_unit),
              madUnitAmount: Number(row.mad_unit),
              medianQuantity: Number(row.median_qty),
              madQuantity: Number(row.mad_qty),
            };
      if (stats !== null) result.set(code, stats);
      if (stats !== null && stats.count >= PEERS_CACHED) PEER_CACHE.set(`${tenantId}|${code}`, stats);
    }
    return result;
  },

  /**
   * Which of the request's service codes the tenant has seen with the primary diagnosis before (counts)
   * and which not (unseen), and about how many requests the tenant has (counted up to PAIR_TOTAL_CAP,
   * remembered for a minute).
   */
  async pairs(db: Queryable, tenantId: number, primaryDiagnosis: string, serviceCodes: readonly string[]) {
    const requested = [...new Set(serviceCodes)];
    const rows = await db.query<{ service_code: string }>(
      `SELECT service_code FROM diagnosis_service_pairs
       WHERE tenant_id = $1 AND diagnosis = $2 AND service_code IN (SELECT json_array_elements_text($3::json))`,
      [tenantId, primaryDiagnosis, JSON.stringify(requested)],
    );
    const counts = new Map(rows.map((row) => [`${primaryDiagnosis}|${row.service_code}`, 1]));
    const seen = new Set(rows.map((row) => row.service_code));
    const unseen = requested.filter((code) => !seen.has(code));
    let total = PAIR_TOTALS.get(String(tenantId));
    if (total === undefined) {
      const counted = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM (SELECT 1 FROM prior_authorizations WHERE tenant_id = $1 LIMIT $2) t",
        [tenantId, PAIR_TOTAL_CAP],
      );
      total = counted[0]?.n ?? 0;
      PAIR_TOTALS.set(String(tenantId), total);
    }
    return { counts, unseen, total };
  },
};
