import type { Db } from "../../platform/db/db.js";
import { AppError } from "../../platform/http/errors.js";
import { communicationRepo } from "./communications/repo.js";
import { informationRequestRepo } from "./information-requests/repo.js";
import { itemViewOf } from "./present.js";
import { priorAuthRepo } from "./repo.js";
import { supportingInfoRepo } from "./supporting-info/repo.js";

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/**
 * The whole prior authorization (GET /approval-request/get-one): the request as submitted, its status and
 * workflow fields, every item with its decision and reasons, the history of transitions, supporting info,
 * communications and the reviewers' requests for information (communication_requests).
 */
export async function getPriorAuth(db: Db, tenantId: number, transactionId: string) {
  const pa = await priorAuthRepo.find(db, tenantId, transactionId);
  if (pa === undefined) throw new AppError("E_EPA_09", `Prior authorization ${transactionId} not found`);
  const [items, history, supportingInfo, communications, informationRequests] = await Promise.all([
    priorAuthRepo.listItems(db, pa.id),
    priorAuthRepo.listHistory(db, pa.id),
    supportingInfoRepo.list(db, pa.id),
    communicationRepo.list(db, pa.id),
    informationRequestRepo.list(db, pa.id),
  ]);
  const { items: _submitted, supporting_info: _inline, ...submitted } = pa.request;
  return {
    ...submitted,
    pre_auth_internal_id: pa.id,
    transaction_id: pa.transaction_id,
    transaction_type: pa.transaction_type,
    mode: pa.mode,
    status: pa.status,
    note: pa.note,
    request_alerts: pa.request_alerts,
    reviewer_erp_id: pa.reviewer_erp_id,
    approval_remarks: pa.approval_remarks ?? submitted.approval_remarks ?? null,
    referral_remarks: pa.referral_remarks,
    internal_referral_notes: pa.internal_referral_notes,
    internal_notes: pa.internal_notes,
    referral_cchi_code: pa.referral_cchi_code,
    referral_valid_days: pa.referral_valid_days,
    referred_at: iso(pa.referred_at),
    nphies_reopen_reason: pa.nphies_reopen_reason,
    nphies_reopen_at: iso(pa.nphies_reopen_at),
    reopened_by: pa.reopened_by,
    response_bundle_id: pa.response_bundle_id,
    response_bundle_status: pa.response_bundle_status,
    response_bundle_date: iso(pa.response_bundle_date),
    engine_runs: pa.engine_runs,
    cancelled_at: iso(pa.cancelled_at),
    created_at: pa.created_at.toISOString(),
    updated_at: pa.updated_at.toISOString(),
    items: items.map(itemViewOf),
    supporting_info: supportingInfo.map(({ start_date, end_date, created_at, ...entry }) => ({
      ...entry,
      start_date: iso(start_date),
      end_date: iso(end_date),
      created_at: created_at.toISOString(),
    })),
    communications: communications.map(({ sent_at, created_at, ...communication }) => ({
      ...communication,
      date: iso(sent_at),
      created_at: created_at.toISOString(),
    })),
    communication_requests: informationRequests.map(({ created_at, ...asked }) => ({
      ...asked,
      created_at: created_at.toISOString(),
    })),
    history: history.map((entry) => ({
      action: entry.action,
      from_status: entry.from_status,
      to_status: entry.to_status,
      actor: entry.actor,
      request_id: entry.request_id,
      details: entry.details,
      at: entry.at.toISOString(),
    })),
  };
}
