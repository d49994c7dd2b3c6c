import type { Queryable } from "../../platform/db/db.js";
import { qualify, updateTenantRow } from "../../platform/db/sql.js";

export interface PolicyRow {
  id: number;
  policy_holder_id: number;
  policy_no: string;
  /** DATE texts */
  start_date: string;
  end_date: string;
  created_date: string;
  status: string;
  plan_code: string | null;
}

export type PolicyFields = Omit<PolicyRow, "id" | "policy_holder_id">;

const POLICY_COLUMNS =
  "id, policy_holder_id, policy_no, start_date, end_date, created_date, status, plan_code";

export interface PatientLinkRow {
  id: number;
  member_pk: number;
  category_code: string;
  network_id: number | null;
  network_code: string | null;
  start_date: string;
  end_date: string;
  status: string;
  is_vip: boolean;
}

/** a policy a member is linked to, as a payer finds the member's coverage (DATE texts) */
export interface MemberPolicyRow {
  policy_id: number;
  policy_no: string;
  ph_erp_id: string;
  policy_status: string;
  policy_start: string;
  policy_end: string;
  link_status: string;
  link_start: string;
  link_end: string;
}

/** a new link between a member and a policy */
export interface NewPatientLink {
  member_pk: number;
  category_code: string;
  network_id: number | null;
  start_date: string;
  end_date: string;
  is_vip: boolean;
  insured_notes: string | null;
  additional_date: string | null;
}

/** why a member cannot be linked: it is on this policy already, or actively covered by another policy */
export interface LinkConflict {
  /** position in the list checked */
  index: number;
  policy_id: number;
  policy_no: string;
}

/**
 * Statuses of a prior authorization whose approved amounts do not count against limits. Utilization is
 * every other request's approved amounts (docs/architecture.md section 4).
 */
export const NOT_UTILIZED_STATUSES = ["REJECTED", "CANCELLED"];

export const policyRepo = {
  /** the holder's policy, created ACTIVE over the given dates unless it exists (the holder must exist) */
  async ensure(
    tx: Queryable,
    tenantId: number,
    key: { ph_erp_id: string; policy_no: string },
    dates: { start_date: string; end_date: string },
  ): Promise<PolicyRow | undefined> {
    const rows = await tx.query<PolicyRow>(
      `WITH holder AS (SELECT id FROM policy_holders WHERE tenant_id = $1 AND ph_erp_id = $2),
       created AS (
         INSERT INTO policies (tenant_id, policy_holder_id, policy_no, start_date, end_date, created_date, status)
         SELECT $1, holder.id, $3, $4::date, $5::date, current_date, 'ACTIVE' FROM holder
         ON CONFLICT (tenant_id, policy_holder_id, policy_no) DO NOTHING
         RETURNING ${POLICY_COLUMNS})
       SELECT * FROM created
       UNION ALL
       SELECT ${qualify(POLICY_COLUMNS, "p")} FROM policies p JOIN holder ON p.policy_holder_id = holder.id
       WHERE p.policy_no = $3`,
      [tenantId, key.ph_erp_id, key.policy_no, dates.start_date, dates.end_date],
    );
    return rows[0];
  },

  /** the holder's database id and, when it exists, its policy; undefined when the holder does not exist */
  async findWithHolder(
    db: Queryable,
    tenantId: number,
    phErpId: string,
    policyNo: string,
  ): Promise<{ holderId: number; policy: PolicyRow | undefined } | undefined> {
    const rows = await db.query<{ holder_id: number } & { [K in keyof PolicyRow]: PolicyRow[K] | null }>(
      `SELECT ph.id AS holder_id, ${qualify(POLICY_COLUMNS, "p")}
       FROM policy_holders ph
       LEFT JOIN policies p ON p.policy_holder_id = ph.id AND p.policy_no = $3
       WHERE ph.tenant_id = $1 AND ph.ph_erp_id = $2`,
      [tenantId, phErpId, policyNo],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    const { holder_id, ...policy } = row;
    return { holderId: holder_id, policy: policy.id === null ? undefined : (policy as PolicyRow) };
  },

  async findById(db: Queryable, policyId: number): Promise<PolicyRow | undefined> {
    const rows = await db.query<PolicyRow>(`SELECT ${POLICY_COLUMNS} FROM policies WHERE id = $1`, [
      policyId,
    ]);
    return rows[0];
  },

  async insert(tx: Queryable, tenantId: number, holderId: number, policy: PolicyFields): Promise<PolicyRow> {
    const rows = await tx.query<PolicyRow>(
      `INSERT INTO policies (tenant_id, policy_holder_id, policy_no, start_date, end_date, created_date, status, plan_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${POLICY_COLUMNS}`,
      [
        tenantId,
        holderId,
        policy.policy_no,
        policy.start_date,
        policy.end_date,
        policy.created_date,
        policy.status,
        policy.plan_code,
      ],
    );
    return rows[0] as PolicyRow;
  },

  update(tx: Queryable, tenantId: number, policyId: number, changes: Partial<PolicyFields>) {
    const writable = ["start_date", "end_date", "status", "plan_code"];
    const target = { table: "policies", key: "id", columns: POLICY_COLUMNS, writable };
    return updateTenantRow<PolicyRow>(tx, target, tenantId, policyId, changes);
  },
};

const LINK_COLUMNS = `pp.id, pp.member_pk, pp.category_code, pp.network_id, n.name AS network_code,
  pp.start_date, pp.end_date, pp.status, pp.is_vip`;

export const patientLinkRepo = {
  /**
   * Locks the tenant's members with these member_ids (in one order, so two imports never deadlock) and
   * returns their database ids: until commit no other transaction can link them.
   */
  async lockMembers(tx: Queryable, tenantId: number, memberIds: readonly string[]) {
    return tx.query<{ id: number; member_id: string }>(
      `SELECT id, member_id FROM members WHERE tenant_id = $1 AND member_id = ANY($2::text[])
       ORDER BY member_id FOR UPDATE`,
      [tenantId, memberIds],
    );
  },

  /**
   * Members (by position in the lists) that cannot be linked to `policyId` for the given coverage: they
   * are on that policy already, or hold an ACTIVE link to another policy that overlaps the dates.
   * `exceptLinkId` leaves out the link being changed.
   */
  async findConflicts(
    db: Queryable,
    policyId: number,
    candidates: { member_pk: number; start_date: string; end_date: string }[],
    exceptLinkId: number | null = null,
  ): Promise<LinkConflict[]> {
    if (candidates.length === 0) return [];
    return db.query<LinkConflict>(
      `SELECT DISTINCT ON (c.ord) (c.ord - 1)::int AS index, pp.policy_id, p.policy_no
       FROM unnest($2::int[], $3::date[], $4::date[]) WITH ORDINALITY AS c (member_pk, start_date, end_date, ord)
       JOIN patient_policies pp ON pp.member_pk = c.member_pk
       JOIN policies p ON p.id = pp.policy_id
       WHERE ($5::int IS NULL OR pp.id <> $5)
         AND (pp.policy_id = $1
              OR (pp.status = 'ACTIVE' AND pp.start_date <= c.end_date AND pp.end_date >= c.start_date))
       ORDER BY c.ord, (pp.policy_id = $1) DESC`,
      [
        policyId,
        candidates.map((c) => c.member_pk),
        candidates.map((c) => c.start_date),
        candidates.map((c) => c.end_date),
        exceptLinkId,
      ],
    );
  },

  /** links many members in one statement; members already on the policy are skipped (none returned) */
  async insertMany(tx: Queryable, tenantId: number, policyId: number, links: readonly NewPatientLink[]) {
    if (links.length === 0) return [];
    return tx.query<{ member_pk: number }>(
      `INSERT INTO patient_policies (tenant_id, policy_id, member_pk, category_code, network_id, start_date,
         end_date, is_vip, insured_notes, additional_date)
       SELECT $1, $2, l.member_pk, l.category_code, l.network_id, l.start_date, l.end_date, l.is_vip,
         l.insured_notes, l.additional_date
       FROM unnest($3::int[], $4::text[], $5::int[], $6::date[], $7::date[], $8::boolean[], $9::text[],
         $10::timestamptz[])
         AS l (member_pk, category_code, network_id, start_date, end_date, is_vip, insured_notes, additional_date)
       ON CONFLICT (policy_id, member_pk) DO NOTHING
       RETURNING member_pk`,
      [
        tenantId,
        policyId,
        links.map((l) => l.member_pk),
        links.map((l) => l.category_code),
        links.map((l) => l.network_id),
        links.map((l) => l.start_date),
        links.map((l) => l.end_date),
        links.map((l) => l.is_vip),
        links.map((l) => l.insured_notes),
        links.map((l) => l.additional_date),
      ],
    );
  },

  /** every policy the member is linked to, with its holder's code, the latest link first */
  listPoliciesOfMember(db: Queryable, memberPk: number): Promise<MemberPolicyRow[]> {
    return db.query<MemberPolicyRow>(
      `SELECT p.id AS policy_id, p.policy_no, ph.ph_erp_id, p.status AS policy_status,
         p.start_date::text AS policy_start, p.end_date::text AS policy_end, pp.status AS link_status,
         pp.start_date::text AS link_start, pp.end_date::text AS link_end
       FROM patient_policies pp JOIN policies p ON p.id = pp.policy_id
       JOIN policy_holders ph ON ph.id = p.policy_holder_id
       WHERE pp.member_pk = $1 ORDER BY pp.end_date DESC, pp.id DESC`,
      [memberPk],
    );
  },

  async find(db: Queryable, policyId: number, memberPk: number): Promise<PatientLinkRow | undefined> {
    const rows = await db.query<PatientLinkRow>(
      `SELECT ${LINK_COLUMNS} FROM patient_policies pp LEFT JOIN networks n ON n.id = pp.network_id
       WHERE pp.policy_id = $1 AND pp.member_pk = $2`,
      [policyId, memberPk],
    );
    return rows[0];
  },

  /**
   * The member's link to the policy as adjudication reads it, with whether the provider is in the link's
   * network (null when the link names none): one statement
   */
  async findForAdjudication(
    db: Queryable,
    policyId: number,
    memberPk: number,
    providerCchiNo: string,
  ): Promise<(PatientLinkRow & { provider_in_network: boolean | null }) | undefined> {
    const rows = await db.query<PatientLinkRow & { provider_in_network: boolean | null }>(
      `SELECT ${LINK_COLUMNS}, CASE WHEN pp.network_id IS NULL THEN NULL ELSE EXISTS (
           SELECT 1 FROM network_providers np JOIN medical_providers p ON p.id = np.provider_id
           WHERE np.network_id = pp.network_id AND p.cchi_no = $3) END AS provider_in_network
       FROM patient_policies pp LEFT JOIN networks n ON n.id = pp.network_id
       WHERE pp.policy_id = $1 AND pp.member_pk = $2`,
      [policyId, memberPk, providerCchiNo],
    );
    return rows[0];
  },

  async update(
    tx: Queryable,
    linkId: number,
    changes: {
      category_code: string;
      network_id: number | null;
      start_date: string;
      end_date: string;
      status: string;
    },
  ): Promise<void> {
    await tx.query(
      `UPDATE patient_policies SET category_code = $2, network_id = $3, start_date = $4, end_date = $5,
         status = $6, updated_at = now()
       WHERE id = $1`,
      [
        linkId,
        changes.category_code,
        changes.network_id,
        changes.start_date,
        changes.end_date,
        changes.status,
      ],
    );
  },

  /**
   * approved (and ex-gratia) amounts of the member's requests under the policy, per benefit and
   * sub-benefit; `exceptPriorAuthId` leaves out the request being re-adjudicated
   */
  async utilization(
    db: Queryable,
    tenantId: number,
    memberPk: number,
    policyId: number,
    exceptPriorAuthId: number | null = null,
    /** a claim being adjudicated: the authorization it is billed under, whose prior authorization it replaces */
    billedUnder: string | null = null,
  ) {
    return db.query<{
      benefit_code: number | null;
      sub_benefit_code: number | null;
      approved: string;
      exgratia: string;
    }>(
      `SELECT i.benefit_code, i.sub_benefit_code, sum(i.approved_amount)::text AS approved,
         sum(i.exgratia_amount)::text AS exgratia
       FROM prior_authorizations pa
       JOIN prior_authorization_items i ON i.prior_authorization_id = pa.id
       WHERE pa.tenant_id = $1 AND pa.member_pk = $2 AND pa.policy_id = $3
         AND pa.status NOT IN (${NOT_UTILIZED_STATUSES.map((status) => `'${status}'`).join(", ")})
         AND pa.id <> $4
         -- a prior authorization that a claim is billed under counts no more: the claim counts instead
         AND NOT (pa.transaction_type = 'PREAUTH' AND (($5::text IS NOT NULL AND pa.authorization_number = $5) OR EXISTS (
           SELECT 1 FROM prior_authorizations c
           WHERE c.tenant_id = pa.tenant_id AND c.member_pk = pa.member_pk AND c.transaction_type = 'CLAIM'
             AND c.authorization_number = pa.authorization_number AND c.id <> $4
             AND c.status NOT IN (${NOT_UTILIZED_STATUSES.map((status) => `'${status}'`).join(", ")}))))
       GROUP BY i.benefit_code, i.sub_benefit_code`,
      [tenantId, memberPk, policyId, exceptPriorAuthId ?? 0, billedUnder],
    );
  },
};
