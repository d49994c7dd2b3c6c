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

export const memberRepo = {
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
};
