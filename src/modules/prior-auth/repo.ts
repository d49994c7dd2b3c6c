import { decimalOf } from "../../engine/money.js";
import type { ItemDecision, Reason } from "../../engine/prior-auth/types.js";
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

/** an item as stored: as submitted, with its current decision (NUMERIC columns read as text) */
export interface ItemRow extends StoredDecision {
  id: number;
  service_code: string;
  erp_item_id: string | null;
  claimed_quantity: number;
  claimed_amount: string;
  item: ItemInput;
  benefit_code: number | null;
  sub_benefit_code: number | null;
}

const ITEM_COLUMNS = `id, item_index, service_code, erp_item_id, claimed_quantity, claimed_amount::text, item, benefit_code,
  sub_benefit_code, outcome, approved, approved_quantity, approved_duration, unit_price::text, request_amount::text,
  approved_amount::text, price_rejected_amount::text, rejected_amount::text, held_amount::text, net_payable::text,
  ai_score::float8 AS ai_score, ai_alert, reasons, reviewer_status, reviewer_reasons`;

/** an item's decision as stored: amounts as decimal text (NUMERIC) */
export interface StoredDecision {
  item_index: number;
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

/**
 * The engine's decision on an item as the items table stores it: the one conversion from the engine's
 * halalas to the stored NUMERIC amounts (the API's riyals are derived from these by present.ts).
 */
export function itemRowOf(item: ItemInput, decision: ItemDecision): ItemRow {
  return {
    id: 0,
    item_index: decision.index,
    service_code: item.service_code,
    erp_item_id: item.erp_item_id ?? null,
    claimed_quantity: item.claimed_quantity ?? 1,
    claimed_amount: String(item.claimed_amount ?? 0),
    item,
    benefit_code: decision.benefitCode,
    sub_benefit_code: decision.subBenefitCode,
    outcome: decision.outcome,
    approved: decision.approved,
    approved_quantity: decision.approvedQuantity,
    approved_duration: decision.approvedDuration,
    unit_price: decimalOf(decision.unitPrice),
    request_amount: decimalOf(decision.requestAmount),
    approved_amount: decimalOf(decision.approvedAmount),
    price_rejected_amount: decimalOf(decision.priceRejectedAmount),
    rejected_amount: decimalOf(decision.rejectedAmount),
    held_amount: decimalOf(decision.heldAmount),
    net_payable: decimalOf(decision.netPayable),
    ai_score: Math.round(decision.aiScore * 10_000) / 10_000,
    ai_alert: decision.aiAlert,
    reasons: decision.reasons,
    reviewer_status: null,
    reviewer_reasons: null,
  };
}

/** a request as it is first stored: PENDING, its workflow columns empty */
export function newPriorAuthRow(
  fields: Pick<
    PriorAuthRow,
    | "id"
    | "transaction_id"
    | "member_pk"
    | "policy_id"
    | "mode"
    | "provider_id"
    | "request"
    | "note"
    | "request_alerts"
  >,
  now: Date,
): PriorAuthRow {
  const request = fields.request;
  // the fields named, not spread: V8 built this literal after a spread property by property (33 us a create)
  return {
    id: fields.id,
    transaction_id: fields.transaction_id,
    member_pk: fields.member_pk,
    policy_id: fields.policy_id,
    mode: fields.mode,
    provider_id: fields.provider_id,
    request,
    note: fields.note,
    request_alerts: fields.request_alerts,
    status: "PENDING",
    authorization_number: request.authorization_number,
    transaction_type: request.transaction_type ?? "PREAUTH",
    provider_cchi_no: request.medical_provider_cchi_no,
    treatment_date: new Date(request.treatment_date),
    reviewer_erp_id: null,
    approval_remarks: null,
    referral_remarks: null,
    internal_referral_notes: null,
    internal_notes: null,
    referral_cchi_code: null,
    referral_valid_days: null,
    referred_at: null,
    nphies_reopen_reason: null,
    nphies_reopen_at: null,
    reopened_by: null,
    response_bundle_id: null,
    response_bundle_status: null,
    response_bundle_date: null,
    engine_runs: 1,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The decision columns as json_to_recordset reads them: rows travel as one JSON text parameter, so the
 * embedded database runs the statement prepared however many items there are.
 */
const DECISION_RECORD = `item_index integer, outcome text, approved boolean, approved_quantity integer,
  approved_duration text, unit_price numeric, request_amount numeric, approved_amount numeric,
  price_rejected_amount numeric, rejected_amount numeric, held_amount numeric, net_payable numeric,
  ai_score numeric, ai_alert text, reasons json, reviewer_status text, reviewer_reasons json`;

export const priorAuthRepo = {
  /** an id for a request about to be stored: its events and attachments name it in the same round trip */
  async reserveId(tx: Queryable): Promise<number> {
    const rows = await tx.query<{ id: number }>(
      // the identity's sequence named, not looked up: pg_get_serial_sequence searched the catalog every call
      "SELECT nextval('prior_authorizations_id_seq')::integer AS id",
    );
    return (rows[0] as { id: number }).id;
  },

  /**
   * A new request (its id reserved) with its items, the first entry of its history, and the
   * diagnosis-service pairs it shows for the first time, in one statement. The pairs are those the
   * request's read did not find: inserting the known ones again cost a conflict check each (ON CONFLICT
   * still settles a pair another request filed meanwhile).
   */
  async insert(
    tx: Queryable,
    tenantId: number,
    pa: PriorAuthRow,
    items: readonly ItemRow[],
    pairs: { primaryDiagnosis: string; newServiceCodes: readonly string[] },
    history: { actor: string; requestId: string | undefined; details: object },
  ): Promise<void> {
    await tx.query(
      `WITH pa AS (
         INSERT INTO prior_authorizations (id, tenant_id, transaction_id, member_pk, policy_id, status, mode,
           authorization_number, transaction_type, provider_cchi_no, provider_id, treatment_date, primary_diagnosis,
           request, note, request_alerts, engine_runs, created_at, updated_at)
         OVERRIDING SYSTEM VALUE
         VALUES ($19, $1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1, $20, $20)
         RETURNING id),
       items AS (
         INSERT INTO prior_authorization_items (tenant_id, prior_authorization_id, item_index, service_code,
           service_type, erp_item_id, claimed_quantity, claimed_amount, item, benefit_code, sub_benefit_code,
           outcome, approved, approved_quantity, approved_duration, unit_price, request_amount, approved_amount,
           price_rejected_amount, rejected_amount, held_amount, net_payable, ai_score, ai_alert, reasons,
           reviewer_status, reviewer_reasons)
         SELECT $1, pa.id, d.item_index, d.service_code, d.item->>'service_type', d.erp_item_id, d.claimed_quantity,
           d.claimed_amount, d.item, d.benefit_code, d.sub_benefit_code, d.outcome, d.approved,
           d.approved_quantity, d.approved_duration, d.unit_price, d.request_amount, d.approved_amount,
           d.price_rejected_amount, d.rejected_amount, d.held_amount, d.net_payable, d.ai_score, d.ai_alert,
           d.reasons, d.reviewer_status, d.reviewer_reasons
         FROM pa, json_to_recordset($15::json) AS d (${DECISION_RECORD}, service_code text,
           erp_item_id text, claimed_quantity integer, claimed_amount numeric, item json, benefit_code integer,
           sub_benefit_code integer)),
       history AS (
         INSERT INTO prior_authorization_history (prior_authorization_id, action, from_status, to_status, actor,
           request_id, details)
         SELECT pa.id, 'create', NULL, 'PENDING', $16, $17, $18 FROM pa),
       pairs AS (
         INSERT INTO diagnosis_service_pairs (tenant_id, diagnosis, service_code)
         SELECT DISTINCT $1::integer, $11::text, code FROM json_array_elements_text($21::json) AS code
         ON CONFLICT DO NOTHING)
       SELECT id FROM pa`,
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
        pa.request.treatment_date,
        pairs.primaryDiagnosis,
        JSON.stringify(pa.request),
        pa.note,
        JSON.stringify(pa.request_alerts),
        // the rows as they are: json_to_recordset reads the columns it names and no other (not the unset id)
        JSON.stringify(items),
        history.actor,
        history.requestId ?? null,
        JSON.stringify(history.details),
        pa.id,
        pa.created_at,
        JSON.stringify(pairs.newServiceCodes),
      ],
    );
  },

  /** replaces the decisions of the request's items (an engine re-run, a reviewer's update) */
  async saveDecisions(
    tx: Queryable,
    priorAuthId: number,
    decisions: readonly StoredDecision[],
  ): Promise<void> {
    await tx.query(
      `UPDATE prior_authorization_items i SET outcome = d.outcome, approved = d.approved,
         approved_quantity = d.approved_quantity, approved_duration = d.approved_duration, unit_price = d.unit_price,
         request_amount = d.request_amount, approved_amount = d.approved_amount,
         price_rejected_amount = d.price_rejected_amount, rejected_amount = d.rejected_amount,
         held_amount = d.held_amount, net_payable = d.net_payable, ai_score = d.ai_score, ai_alert = d.ai_alert,
         reasons = d.reasons, reviewer_status = d.reviewer_status, reviewer_reasons = d.reviewer_reasons
       FROM json_to_recordset($2::json) AS d (${DECISION_RECORD})
       WHERE i.prior_authorization_id = $1 AND i.item_index = d.item_index`,
      [priorAuthId, JSON.stringify(decisions)],
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
