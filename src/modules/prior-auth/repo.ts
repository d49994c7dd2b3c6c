import type { Reason } from "../../engine/prior-auth/types.js";
import type { Queryable } from "../../platform/db/db.js";
import type { CreateInput, ItemInput } from "./schemas.js";

export type PriorAuthStatus =
  | "PENDING"
  | "ACCEPTED"
  | "PARTIALLY_ACCEPTED"
  | "REJECTED"
  | "REFERRED"
  | "CANCELLED";

export interface PriorAuthRow {
  id: number;
  transaction_id: string;
  member_pk: number;
  policy_id: number | null;
  status: PriorAuthStatus;
  mode: "standard" | "lightweight";
  authorization_number: string;
  transaction_type: "PREAUTH" | "CLAIM";
  provider_cchi_no: string;
  provider_id: number | null;
  treatment_date: Date;
  request: CreateInput;
  note: string | null;
  request_alerts: string[];
  reviewer_erp_id: string | null;
  approval_remarks: string | null;
  referral_remarks: string | null;
  internal_referral_notes: string | null;
  internal_notes: string | null;
  referral_cchi_code: string | null;
  referral_valid_days: number | null;
  referred_at: Date | null;
  nphies_reopen_reason: string | null;
  nphies_reopen_at: Date | null;
  reopened_by: string | null;
  response_bundle_id: string | null;
  response_bundle_status: string | null;
  response_bundle_date: Date | null;
  engine_runs: number;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, transaction_id, member_pk, policy_id, status, mode, authorization_number, transaction_type,
  provider_cchi_no, provider_id, treatment_date, request, note, request_alerts, reviewer_erp_id, approval_remarks,
  referral_remarks, internal_referral_notes, internal_notes, referral_cchi_code, referral_valid_days, referred_at,
  nphies_reopen_reason, nphies_reopen_at, reopened_by, response_bundle_id, response_bundle_status,
  response_bundle_date, engine_runs, cancelled_at, created_at, updated_at`;

export interface ItemRow {
  id: number;
  item_index: number;
  service_code: string;
  erp_item_id: string | null;
  claimed_quantity: number;
  claimed_amount: string;
  item: ItemInput;
  benefit_code: number | null;
  sub_benefit_code: number | null;
  outcome: string;
  approved: boolean;
  approved_quantity: number;
  approved_duration: string | null;
  unit_price: string;
  request_amount: string;
  approved_amount: string;
  price_rejected_amount: string;
  rejected_amount: string;
  held_amount: string;
  net_payable: string;
  ai_score: string;
  ai_alert: string | null;
  reasons: Reason[];
  reviewer_status: string | null;
  reviewer_reasons: { code: string; message: string | null }[] | null;
}

const ITEM_COLUMNS = `id, item_index, service_code, erp_item_id, claimed_quantity, claimed_amount::text, item, benefit_code,
  sub_benefit_code, outcome, approved, approved_quantity, approved_duration, unit_price::text, request_amount::text,
  approved_amount::text, price_rejected_amount::text, rejected_amount::text, held_amount::text, net_payable::text,
  ai_score::text, ai_alert, reasons, reviewer_status, reviewer_reasons`;

/** an item's decision as stored: amounts as decimal text (NUMERIC) */
export interface StoredDecision {
  outcome: string;
  approved: boolean;
  approved_quantity: number;
  approved_duration: string | null;
  unit_price: string;
  request_amount: string;
  approved_amount: string;
  price_rejected_amount: string;
  rejected_amount: string;
  held_amount: string;
  net_payable: string;
  ai_score: number;
  ai_alert: string | null;
  reasons: Reason[];
  reviewer_status: string | null;
  reviewer_reasons: { code: string; message: string | null }[] | null;
}

export interface NewPriorAuth {
  transaction_id: string;
  member_pk: number;
  policy_id: number | null;
  mode: "standard" | "lightweight";
  authorization_number: string;
  transaction_type: "PREAUTH" | "CLAIM";
  provider_cchi_no: string;
  provider_id: number | null;
  treatment_date: string;
  primary_diagnosis: string;
  request: CreateInput;
  note: string;
  request_alerts: string[];
}

/** the decision columns, in the order the unnest of saveDecisions lists them */
const DECISION_ARRAYS = `unnest($2::int[], $3::text[], $4::boolean[], $5::int[], $6::text[], $7::numeric[], $8::numeric[],
  $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[], $15::text[],
  $16::text[], $17::text[], $18::text[])
  AS d (item_index, outcome, approved, approved_quantity, approved_duration, unit_price, request_amount,
        approved_amount, price_rejected_amount, rejected_amount, held_amount, net_payable, ai_score, ai_alert,
        reasons, reviewer_status, reviewer_reasons)`;

function decisionArrays(decisions: readonly (StoredDecision & { item_index: number })[]) {
  const column = <K extends keyof StoredDecision | "item_index">(key: K) => decisions.map((d) => d[key]);
  return [
    column("item_index"),
    column("outcome"),
    column("approved"),
    column("approved_quantity"),
    column("approved_duration"),
    column("unit_price"),
    column("request_amount"),
    column("approved_amount"),
    column("price_rejected_amount"),
    column("rejected_amount"),
    column("held_amount"),
    column("net_payable"),
    column("ai_score"),
    column("ai_alert"),
    decisions.map((d) => JSON.stringify(d.reasons)),
    column("reviewer_status"),
    decisions.map((d) => (d.reviewer_reasons === null ? null : JSON.stringify(d.reviewer_reasons))),
  ];
}

export const priorAuthRepo = {
  async insert(tx: Queryable, tenantId: number, pa: NewPriorAuth): Promise<number> {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO prior_authorizations (tenant_id, transaction_id, member_pk, policy_id, status, mode,
         authorization_number, transaction_type, provider_cchi_no, provider_id, treatment_date, primary_diagnosis,
         request, note, request_alerts, engine_runs)
       VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1) RETURNING id`,
      [
        tenantId,
        pa.transaction_id,
        pa.member_pk,
        pa.policy_id,
        pa.mode,
        pa.authorization_number,
        pa.transaction_type,
        pa.provider_cchi_no,
        pa.provider_id,
        pa.treatment_date,
        pa.primary_diagnosis,
        JSON.stringify(pa.request),
        pa.note,
        JSON.stringify(pa.request_alerts),
      ],
    );
    return (rows[0] as { id: number }).id;
  },

  /** the items as submitted, with the engine's first decisions */
  async insertItems(
    tx: Queryable,
    tenantId: number,
    priorAuthId: number,
    items: readonly ItemInput[],
    decisions: readonly (StoredDecision & {
      item_index: number;
      benefit_code: number | null;
      sub_benefit_code: number | null;
    })[],
  ): Promise<void> {
    await tx.query(
      `INSERT INTO prior_authorization_items (tenant_id, prior_authorization_id, item_index, service_code,
         service_type, erp_item_id, claimed_quantity, claimed_amount, item, benefit_code, sub_benefit_code,
         outcome, approved, approved_quantity, approved_duration, unit_price, request_amount, approved_amount,
         price_rejected_amount, rejected_amount, held_amount, net_payable, ai_score, ai_alert, reasons,
         reviewer_status, reviewer_reasons)
       SELECT $19, $1, d.item_index, i.service_code, i.service_type, i.erp_item_id, i.claimed_quantity,
         i.claimed_amount, i.item::json, i.benefit_code, i.sub_benefit_code, d.outcome, d.approved,
         d.approved_quantity, d.approved_duration, d.unit_price, d.request_amount, d.approved_amount,
         d.price_rejected_amount, d.rejected_amount, d.held_amount, d.net_payable, d.ai_score, d.ai_alert,
         d.reasons::json, d.reviewer_status, d.reviewer_reasons::json
       FROM ${DECISION_ARRAYS}
       JOIN unnest($20::text[], $21::text[], $22::text[], $23::int[], $24::numeric[], $25::text[], $26::int[],
         $27::int[]) WITH ORDINALITY
         AS i (service_code, service_type, erp_item_id, claimed_quantity, claimed_amount, item, benefit_code,
               sub_benefit_code, ord)
         ON i.ord = d.item_index + 1`,
      [
        priorAuthId,
        ...decisionArrays(decisions),
        tenantId,
        items.map((item) => item.service_code),
        items.map((item) => item.service_type),
        items.map((item) => item.erp_item_id ?? null),
        items.map((item) => item.claimed_quantity ?? 1),
        items.map((item) => item.claimed_amount ?? 0),
        items.map((item) => JSON.stringify(item)),
        decisions.map((d) => d.benefit_code),
        decisions.map((d) => d.sub_benefit_code),
      ],
    );
  },

  /** replaces the decisions of the request's items (an engine re-run, a reviewer's update) */
  async saveDecisions(
    tx: Queryable,
    priorAuthId: number,
    decisions: readonly (StoredDecision & { item_index: number })[],
  ): Promise<void> {
    await tx.query(
      `UPDATE prior_authorization_items i SET outcome = d.outcome, approved = d.approved,
         approved_quantity = d.approved_quantity, approved_duration = d.approved_duration, unit_price = d.unit_price,
         request_amount = d.request_amount, approved_amount = d.approved_amount,
         price_rejected_amount = d.price_rejected_amount, rejected_amount = d.rejected_amount,
         held_amount = d.held_amount, net_payable = d.net_payable, ai_score = d.ai_score, ai_alert = d.ai_alert,
         reasons = d.reasons::json, reviewer_status = d.reviewer_status, reviewer_reasons = d.reviewer_reasons::json
       FROM ${DECISION_ARRAYS}
       WHERE i.prior_authorization_id = $1 AND i.item_index = d.item_index`,
      [priorAuthId, ...decisionArrays(decisions)],
    );
  },

  async find(
    db: Queryable,
    tenantId: number,
    transactionId: string,
    lock = false,
  ): Promise<PriorAuthRow | undefined> {
    const rows = await db.query<PriorAuthRow>(
      `SELECT ${COLUMNS} FROM prior_authorizations WHERE tenant_id = $1 AND transaction_id = $2
       ${lock ? "FOR UPDATE" : ""}`,
      [tenantId, transactionId],
    );
    return rows[0];
  },

  async findById(db: Queryable, priorAuthId: number): Promise<PriorAuthRow | undefined> {
    const rows = await db.query<PriorAuthRow>(`SELECT ${COLUMNS} FROM prior_authorizations WHERE id = $1`, [
      priorAuthId,
    ]);
    return rows[0];
  },

  listItems(db: Queryable, priorAuthId: number): Promise<ItemRow[]> {
    return db.query<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM prior_authorization_items WHERE prior_authorization_id = $1 ORDER BY item_index`,
      [priorAuthId],
    );
  },

  /** changes the named workflow columns (only those listed here can be written) */
  async update(tx: Queryable, priorAuthId: number, changes: Partial<Record<WorkflowColumn, unknown>>) {
    const entries = Object.entries(changes).filter(
      ([column, value]) => value !== undefined && (WORKFLOW_COLUMNS as readonly string[]).includes(column),
    );
    if (entries.length === 0) return;
    await tx.query(
      `UPDATE prior_authorizations SET ${entries.map(([column], i) => `${column} = $${i + 2}`).join(", ")},
         updated_at = now() WHERE id = $1`,
      [
        priorAuthId,
        ...entries.map(([column, value]) => (JSON_COLUMNS.has(column) ? JSON.stringify(value) : value)),
      ],
    );
  },

  async addHistory(
    tx: Queryable,
    priorAuthId: number,
    entry: {
      action: string;
      from: string | null;
      to: string;
      actor: string;
      requestId: string | undefined;
      details?: object;
    },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO prior_authorization_history (prior_authorization_id, action, from_status, to_status, actor,
         request_id, details) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        priorAuthId,
        entry.action,
        entry.from,
        entry.to,
        entry.actor,
        entry.requestId ?? null,
        JSON.stringify(entry.details ?? {}),
      ],
    );
  },

  listHistory(db: Queryable, priorAuthId: number) {
    return db.query<{
      action: string;
      from_status: string | null;
      to_status: string;
      actor: string;
      request_id: string | null;
      details: Record<string, unknown>;
      at: Date;
    }>(
      `SELECT action, from_status, to_status, actor, request_id, details, at FROM prior_authorization_history
       WHERE prior_authorization_id = $1 ORDER BY id`,
      [priorAuthId],
    );
  },
};

const WORKFLOW_COLUMNS = [
  "status",
  "note",
  "request_alerts",
  "reviewer_erp_id",
  "approval_remarks",
  "referral_remarks",
  "internal_referral_notes",
  "internal_notes",
  "referral_cchi_code",
  "referral_valid_days",
  "referred_at",
  "nphies_reopen_reason",
  "nphies_reopen_at",
  "reopened_by",
  "response_bundle_id",
  "response_bundle_status",
  "response_bundle_date",
  "engine_runs",
  "cancelled_at",
] as const;
type WorkflowColumn = (typeof WORKFLOW_COLUMNS)[number];
const JSON_COLUMNS = new Set(["request_alerts"]);
