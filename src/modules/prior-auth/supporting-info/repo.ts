import type { Queryable } from "../../../platform/db/db.js";
import type { SupportingInfoInput } from "./schemas.js";

export interface SupportingInfoRow {
  id: number;
  attached_to: "PREAUTH" | "CLAIM";
  sequence_number: number | null;
  type: string | null;
  code: string | null;
  value: string | null;
  file_name: string | null;
  unit: string | null;
  start_date: Date | null;
  end_date: Date | null;
  value_url: string | null;
  created_at: Date;
}

const FIELDS = [
  "sequence_number",
  "type",
  "code",
  "value",
  "file_name",
  "unit",
  "start_date",
  "end_date",
  "value_url",
] as const;
const TYPES: Record<(typeof FIELDS)[number], string> = {
  sequence_number: "int",
  type: "text",
  code: "text",
  value: "text",
  file_name: "text",
  unit: "text",
  start_date: "timestamptz",
  end_date: "timestamptz",
  value_url: "text",
};

export const supportingInfoRepo = {
  /** the entries, in the order given; returns their ids */
  async insertMany(
    tx: Queryable,
    tenantId: number,
    priorAuthId: number,
    attachedTo: "PREAUTH" | "CLAIM",
    entries: readonly SupportingInfoInput[],
  ): Promise<number[]> {
    if (entries.length === 0) return [];
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO supporting_info (tenant_id, prior_authorization_id, attached_to, ${FIELDS.join(", ")})
       SELECT $1, $2, $3, ${FIELDS.join(", ")}
       FROM unnest(${FIELDS.map((field, i) => `$${i + 4}::${TYPES[field]}[]`).join(", ")})
         WITH ORDINALITY AS e (${FIELDS.join(", ")}, ord)
       ORDER BY ord RETURNING id`,
      [
        tenantId,
        priorAuthId,
        attachedTo,
        ...FIELDS.map((field) => entries.map((entry) => entry[field] ?? null)),
      ],
    );
    return rows.map((row) => row.id);
  },

  list(db: Queryable, priorAuthId: number): Promise<SupportingInfoRow[]> {
    return db.query<SupportingInfoRow>(
      `SELECT id, attached_to, ${FIELDS.join(", ")}, created_at FROM supporting_info
       WHERE prior_authorization_id = $1 ORDER BY sequence_number NULLS LAST, id`,
      [priorAuthId],
    );
  },
};
