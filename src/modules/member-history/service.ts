import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db } from "../../platform/db/db.js";
import { refusal } from "../../platform/http/errors.js";
import { normalizeIcd10 } from "../../reference/icd10.js";
import { memberHistoryRepo } from "./repo.js";
import { APPROVED_STATUSES, type HistorySyncInput } from "./schemas.js";

/**
 * Loads a member's past claims or requests from the insurer's systems (history synchronization). A record
 * is keyed by its kind and reference: loading it again replaces it. The engine reads them for duplicates,
 * follow-ups and frequency, and the anomaly score for the member's activity.
 */
export async function syncHistory(
  db: Db,
  actor: TenantActor,
  kind: "CLAIM" | "PREAUTH",
  input: HistorySyncInput,
) {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  input.records.forEach((record, index) => {
    const first = seen.get(record.reference);
    if (first !== undefined) problems.push(`records[${index}].reference duplicates records[${first}]`);
    else seen.set(record.reference, index);
  });
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
  const created = await db.transaction(async (tx) => {
    const inserted = await memberHistoryRepo.upsertMany(
      tx,
      actor.tenantId,
      input.member_id,
      input.records.map((record) => ({
        kind,
        reference: record.reference,
        service_date: new Date(
          record.service_date.length === 10 ? `${record.service_date}T00:00:00.000Z` : record.service_date,
        ),
        status: record.status,
        approved: (APPROVED_STATUSES as readonly string[]).includes(record.status),
        provider_cchi_no: record.provider_cchi_no ?? null,
        diagnosis_codes: JSON.stringify((record.diagnosis_codes ?? []).map(normalizeIcd10)),
        items: JSON.stringify(record.items),
      })),
    );
    await recordAudit(tx, actor, {
      action: `member-history.sync-${kind === "CLAIM" ? "claims" : "requests"}`,
      entityType: "member",
      entityKey: input.member_id,
      details: { received: input.records.length, created: inserted },
    });
    return inserted;
  });
  return { received: input.records.length, created, updated: input.records.length - created };
}

export async function findHistory(
  db: Db,
  tenantId: number,
  memberId: string,
  page: { limit: number; skip: number },
) {
  const found = await memberHistoryRepo.findPage(db, tenantId, memberId, page);
  return {
    total: found.total,
    rows: found.rows.map(({ id: _id, service_date, ...row }) => ({
      ...row,
      service_date: service_date.toISOString(),
    })),
  };
}
