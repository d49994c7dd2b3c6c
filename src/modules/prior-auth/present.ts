import { amountOrNull } from "../../engine/money.js";
import type { Reason } from "../../engine/prior-auth/types.js";
import { nphiesDisplay } from "../../reference/nphies-reasons.js";
import type { ItemRow, PriorAuthRow, StoredDecision } from "./repo.js";
import { ENCOUNTER_FIELDS } from "./schemas.js";

/** amounts stored as NUMERIC text, in the API as numbers of riyals */
const riyals = (amount: string): number => amountOrNull(amount) ?? 0;

/** what a reviewer gave as an item's reasons, in the shape of the engine's */
function reviewerReasonsOf(decision: Pick<StoredDecision, "reviewer_reasons">): Reason[] {
  return (decision.reviewer_reasons ?? []).map((reason) => ({
    code: reason.code,
    nphiesCode: nphiesDisplay(reason.code) === undefined ? null : reason.code,
    message: reason.message ?? nphiesDisplay(reason.code) ?? reason.code,
    source: "rules" as const,
  }));
}

/** every reason an item carries: the engine's, then the reviewer's */
export function reasonsOf(decision: Pick<StoredDecision, "reasons" | "reviewer_reasons">): Reason[] {
  return [...decision.reasons, ...reviewerReasonsOf(decision)];
}

/** an item of the create response (the spec's items_results, with the amounts) */
export function itemResultOf(decision: ItemRow) {
  return {
    service_code: decision.service_code,
    item_erp_id: decision.erp_item_id,
    approved: decision.approved,
    approved_quantity: decision.approved_quantity,
    approved_duration: decision.approved_duration,
    decision: decision.outcome,
    request_amount: riyals(decision.request_amount),
    approved_amount: riyals(decision.approved_amount),
    price_rejected_amount: riyals(decision.price_rejected_amount),
    rejected_amount: riyals(decision.rejected_amount),
    net_payable: riyals(decision.net_payable),
    svc_ai_score: Number(decision.ai_score),
    svc_ai_alert: decision.ai_alert,
    rejection_reason: decision.approved
      ? reasonsOf(decision)
          .filter((reason) => reason.nphiesCode !== null)
          .map((reason) => ({ code: reason.code, nphies_code: reason.nphiesCode, message: reason.message }))
      : reasonsOf(decision).map((reason) => ({
          code: reason.code,
          nphies_code: reason.nphiesCode,
          message: reason.message,
        })),
  };
}

/** one item in get-one: as submitted, then its decision */
export function itemViewOf(row: ItemRow) {
  return {
    ...row.item,
    item_index: row.item_index,
    benefit_code: row.benefit_code,
    sub_benefit_code: row.sub_benefit_code,
    decision: row.outcome,
    approved: row.approved,
    approved_quantity: row.approved_quantity,
    approved_duration: row.approved_duration,
    price: riyals(row.unit_price),
    request_amount: riyals(row.request_amount),
    approved_amount: riyals(row.approved_amount),
    price_rejected_amount: riyals(row.price_rejected_amount),
    rejected_amount: riyals(row.rejected_amount),
    held_amount: riyals(row.held_amount),
    net_payable: riyals(row.net_payable),
    svc_ai_score: Number(row.ai_score),
    svc_ai_alert: row.ai_alert,
    reasons: row.reasons.map((reason) => ({
      code: reason.code,
      nphies_code: reason.nphiesCode,
      message: reason.message,
      source: reason.source,
    })),
    reviewer_status: row.reviewer_status,
    reviewer_reasons: row.reviewer_reasons ?? [],
  };
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** the reason_code[] of the PRE_AUTH_RESULT event */
function reasonCodesOf(row: ItemRow) {
  return reasonsOf(row).map((reason) => ({
    svc_ai_code: reason.code,
    svc_ai_description:
      reason.nphiesCode === null ? reason.message : (nphiesDisplay(reason.nphiesCode) ?? null),
    svc_ai_message: reason.message,
    nphies_code: reason.nphiesCode,
    nphies_description: reason.nphiesCode === null ? null : (nphiesDisplay(reason.nphiesCode) ?? null),
    special_case_amount: null,
    erp_code: null,
    is_approved: row.approved,
    source: reason.source,
  }));
}

/** the encounter of the request, as sent, with what the request itself says where a field was not sent */
function encounterOf(pa: PriorAuthRow) {
  const sent = pa.request.encounter ?? {};
  const admissions = pa.request.items
    .flatMap((item) => (item.admission_date ? [item.admission_date] : []))
    .sort();
  const discharges = pa.request.items
    .flatMap((item) => (item.discharge_date ? [item.discharge_date] : []))
    .sort();
  const derived: Record<string, string | null> = {
    encounter_class: { IN_PATIENT: "IMP", OUT_PATIENT: "AMB", EMERGENCY: "EMER" }[pa.request.claim_sub_type],
    encounter_priority: pa.request.is_emergency ? "EM" : null,
    encounter_start_date: admissions[0] ?? pa.request.treatment_date,
    encounter_end_date: discharges.at(-1) ?? null,
    encounter_admission: admissions[0] ?? null,
    encounter_discharge: discharges.at(-1) ?? null,
  };
  return Object.fromEntries(
    ENCOUNTER_FIELDS.map((field) => [
      field,
      (sent as Record<string, string | undefined>)[field] ?? derived[field] ?? null,
    ]),
  );
}

/**
 * The `data` of PRE_AUTH_RESULT (and of the other prior-authorization events): every field the spec
 * lists, in its order, null for what is unset.
 */
export function eventDataOf(pa: PriorAuthRow, items: readonly ItemRow[], source: "ENGINE" | "REVIEWER") {
  const r = pa.request;
  const referred = pa.status === "REFERRED" || pa.referred_at !== null;
  return {
    pre_auth_internal_id: pa.id,
    transaction_id: pa.transaction_id,
    authorization_number: pa.authorization_number,
    nphies_reopen_at: iso(pa.nphies_reopen_at),
    nphies_reopen_reason: pa.nphies_reopen_reason,
    submitter_erp_id: r.erp_user_id ?? null,
    approval_remarks: pa.approval_remarks ?? r.approval_remarks ?? null,
    referral_remarks: pa.referral_remarks,
    internal_referral_notes: pa.internal_referral_notes,
    is_referred: referred,
    internal_notes: pa.internal_notes,
    request_alerts: pa.request_alerts,
    status: pa.status,
    reviewer_erp_id: pa.reviewer_erp_id,
    member_id: r.member_id,
    source,
    is_emergency: r.is_emergency ?? false,
    is_new_born: r.is_new_born ?? false,
    is_maternity: r.is_maternity ?? false,
    related_authorization_number: r.related_authorization_number ?? null,
    claim_type: r.claim_type,
    treatment_date: r.treatment_date,
    period_start_date: r.treatment_date,
    doctor_id: r.doctor_id ?? null,
    doctor_name: r.doctor_name ?? null,
    doctor_speciality: r.doctor_speciality ?? null,
    nphies_bundle_id: pa.response_bundle_id ?? r.nphies_bundle_id ?? null,
    provider_system_id: r.provider_system_id ?? null,
    provider_comment: r.provider_comment ?? null,
    ERP_user_id: r.erp_user_id ?? null,
    price_list_level: r.price_list_level ?? null,
    patient_id: r.member_id,
    medical_provider_cchi_no: r.medical_provider_cchi_no,
    ph_erp_id: r.ph_erp_id,
    currency: r.currency ?? null,
    currency_rate: r.currency_rate ?? null,
    is_reviewer_accepted_as_road_traffic_accident: null,
    is_traffic_accident: null,
    assign_to_erp_id: null,
    additional_remarks: r.additional_remarks ?? null,
    total_recovery_utilized: null,
    total_exgratia_utilized: null,
    benefit_code: r.benefit_code ?? null,
    is_referral: referred,
    referral_provider_cchi_code: pa.referral_cchi_code,
    valid_days: pa.referral_valid_days,
    referred_at: iso(pa.referred_at),
    encounter: encounterOf(pa),
    items_decisions: items.map((row) => ({
      item_erp_id: row.erp_item_id,
      service_code: row.service_code,
      duration: row.item.duration ?? null,
      frequency: row.item.frequency ?? null,
      admission_date: row.item.admission_date ?? null,
      discharge_date: row.item.discharge_date ?? null,
      approved_quantity: row.approved_quantity,
      approved_amount: riyals(row.approved_amount),
      price: riyals(row.unit_price),
      request_amount: riyals(row.request_amount),
      provider_deductible_amount: 0,
      net_request_amount: riyals(row.request_amount),
      rejected_amount: riyals(row.rejected_amount),
      price_rejected_amount: riyals(row.price_rejected_amount),
      net_payable: riyals(row.net_payable),
      decision: row.outcome,
      warning_message: row.ai_alert,
      benefit_code: row.benefit_code,
      sub_benefit_code: row.sub_benefit_code,
      reason_code: reasonCodesOf(row),
      svc_ai_alert: row.ai_alert,
      svc_ai_score: Number(row.ai_score),
      pbm_drug_info: null,
    })),
  };
}
