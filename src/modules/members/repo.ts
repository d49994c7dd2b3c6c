import type { Queryable } from "../../platform/db/db.js";
import { updateTenantRow } from "../../platform/db/sql.js";

export interface MemberRow {
  member_id: string;
  national_id: string | null;
  gender: string;
  marital_status: string | null;
  date_of_birth: Date;
  name: string | null;
  card: string | null;
  email: string | null;
  relation: string | null;
  passport: string | null;
  visit_visa_number: string | null;
  phone_number: string | null;
  address: string | null;
  nationality: string | null;
}

/** every column a client can write, in one order for INSERT */
const WRITABLE = [
  "member_id",
  "national_id",
  "gender",
  "marital_status",
  "date_of_birth",
  "name",
  "card",
  "email",
  "relation",
  "passport",
  "visit_visa_number",
  "phone_number",
  "address",
  "nationality",
] as const satisfies readonly (keyof MemberRow)[];

const COLUMNS = WRITABLE.join(", ");

/** a member found by one of its identifiers, and by which */
export interface MemberFound {
  pk: number;
  member_id: string;
  national_id: string | null;
  passport: string | null;
  gender: "MALE" | "FEMALE";
  date_of_birth: Date;
  matched_by: "member_id" | "national_id" | "passport";
}

/** a member as adjudication reads it */
export interface MemberForAdjudication {
  pk: number;
  gender: "MALE" | "FEMALE";
  date_of_birth: Date;
  /** one more with every adjudication that took the row (migration 0018) */
  version: number;
}

/** the member an adjudication reads, by member id, through `statement` (a read or the lock) */
async function memberForAdjudication(
  db: Queryable,
  statement: string,
  tenantId: number,
  memberId: string,
): Promise<MemberForAdjudication | undefined> {
  const rows = await db.query<MemberForAdjudication>(statement, [tenantId, memberId]);
  return rows[0];
}

export const memberRepo = {
  /** a member created from what a request says of it, unless it exists; true when created */
  async insertIfMissing(
    tx: Queryable,
    tenantId: number,
    member: { member_id: string; gender: string; marital_status: string | undefined; date_of_birth: string },
  ): Promise<boolean> {
    const inserted = await tx.query(
      `INSERT INTO members (tenant_id, member_id, gender, marital_status, date_of_birth) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, member_id) DO NOTHING RETURNING id`,
      [tenantId, member.member_id, member.gender, member.marital_status ?? null, member.date_of_birth],
    );
    return inserted.length > 0;
  },

  /**
   * The member's row, locked until commit and its version taken: one member's requests are adjudicated
   * one after another, and a decision made without the row (`takeVersion`) sees that it moved on.
   */
  lockForAdjudication: (tx: Queryable, tenantId: number, memberId: string) =>
    memberForAdjudication(
      tx,
      `UPDATE members SET version = version + 1 WHERE tenant_id = $1 AND member_id = $2
       RETURNING id AS pk, gender, date_of_birth, version`,
      tenantId,
      memberId,
    ),

  /** the member as an adjudication reads it, not locked */
  findForAdjudication: (db: Queryable, tenantId: number, memberId: string) =>
    memberForAdjudication(
      db,
      "SELECT id AS pk, gender, date_of_birth, version FROM members WHERE tenant_id = $1 AND member_id = $2",
      tenantId,
      memberId,
    ),

  /**
   * Takes the member's next version if it is still `version`; otherwise the statement fails with
   * serialization_failure (40001), and with it the transaction: another adjudication of the member
   * committed since `version` was read.
   */
  async takeVersion(tx: Queryable, member: { pk: number; version: number }): Promise<void> {
    await tx.query("SELECT take_member_version($1, $2)", [member.pk, member.version]);
  },

  async insert(tx: Queryable, tenantId: number, member: MemberRow): Promise<MemberRow> {
    const placeholders = WRITABLE.map((_, index) => `$${index + 2}`).join(", ");
    const rows = await tx.query<MemberRow>(
      `INSERT INTO members (tenant_id, ${COLUMNS}) VALUES ($1, ${placeholders}) RETURNING ${COLUMNS}`,
      [tenantId, ...WRITABLE.map((column) => member[column])],
    );
    return rows[0] as MemberRow;
  },

  update(tx: Queryable, tenantId: number, memberId: string, changes: Partial<MemberRow>) {
    // member_id is the key: it is not changed by an update
    const writable = WRITABLE.filter((column) => column !== "member_id");
    const target = { table: "members", key: "member_id", columns: COLUMNS, writable };
    return updateTenantRow<MemberRow>(tx, target, tenantId, memberId, changes);
  },

  async findByMemberId(db: Queryable, tenantId: number, memberId: string): Promise<MemberRow | undefined> {
    const rows = await db.query<MemberRow>(
      `SELECT ${COLUMNS} FROM members WHERE tenant_id = $1 AND member_id = $2`,
      [tenantId, memberId],
    );
    return rows[0];
  },

  /**
   * Members any of `identifiers` names: as member id, national id (or iqama) or passport; member-id
   * matches first, then by id, at most 10. One lookup per identifier: with the identifiers as one array
   * the embedded database's prepared statement never settled on a plan and planned each time (2.3 ms).
   */
  async findByIdentifiers(
    db: Queryable,
    tenantId: number,
    identifiers: readonly string[],
  ): Promise<MemberFound[]> {
    const lookups = await Promise.all(
      [...new Set(identifiers)].map((identifier) =>
        db.query<MemberFound>(
          `SELECT id AS pk, member_id, national_id, passport, gender, date_of_birth,
             CASE WHEN member_id = $2 THEN 'member_id' WHEN national_id = $2 THEN 'national_id'
               ELSE 'passport' END AS matched_by
           FROM members WHERE tenant_id = $1 AND (member_id = $2 OR national_id = $2 OR passport = $2)
           ORDER BY id LIMIT 10`,
          [tenantId, identifier],
        ),
      ),
    );
    // a member several identifiers name is found once, by the best of its matches
    const rank = { member_id: 0, national_id: 1, passport: 2 } as const;
    const byPk = new Map<number, MemberFound>();
    for (const member of lookups.flat()) {
      const seen = byPk.get(member.pk);
      if (seen === undefined || rank[member.matched_by] < rank[seen.matched_by]) byPk.set(member.pk, member);
    }
    return [...byPk.values()]
      .sort(
        (a, b) => Number(b.matched_by === "member_id") - Number(a.matched_by === "member_id") || a.pk - b.pk,
      )
      .slice(0, 10);
  },

  /** the member's database id (what links, requests and declarations reference) */
  async findPk(db: Queryable, tenantId: number, memberId: string): Promise<number | undefined> {
    const rows = await db.query<{ id: number }>(
      `SELECT id FROM members WHERE tenant_id = $1 AND member_id = $2`,
      [tenantId, memberId],
    );
    return rows[0]?.id;
  },

  /**
   * Creates or updates many members in one statement (the bulk imports). Fields a member row leaves null
   * keep their stored value; `inserted` tells which members are new.
   */
  async upsertMany(tx: Queryable, tenantId: number, members: readonly MemberRow[]) {
    if (members.length === 0) return [];
    const types: Record<string, string> = { date_of_birth: "timestamptz" };
    const arrays = WRITABLE.map((column, index) => `$${index + 2}::${types[column] ?? "text"}[]`).join(", ");
    const assignments = WRITABLE.filter((column) => column !== "member_id")
      .map((column) => `${column} = COALESCE(EXCLUDED.${column}, members.${column})`)
      .join(", ");
    return tx.query<{ id: number; member_id: string; inserted: boolean }>(
      `INSERT INTO members (tenant_id, ${COLUMNS})
       SELECT $1, * FROM unnest(${arrays})
       ON CONFLICT (tenant_id, member_id) DO UPDATE SET ${assignments}, updated_at = now()
       RETURNING id, member_id, (xmax = 0) AS inserted`,
      [tenantId, ...WRITABLE.map((column) => members.map((member) => member[column]))],
    );
  },
};
