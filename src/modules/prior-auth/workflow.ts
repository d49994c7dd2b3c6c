import { decide } from "../../engine/prior-auth/decide.js";
import { recordAudit, type TenantActor } from "../../platform/audit/audit.js";
import type { Db, Queryable } from "../../platform/db/db.js";
import type { EventHookType } from "../../platform/events/outbox.js";
import { AppError } from "../../platform/http/errors.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { normalizeIcd10 } from "../../reference/icd10.js";
import { policyRepo } from "../policies/repo.js";
import { templateRepo } from "../policy-templates/repo.js";
import { userRepo } from "../users/repo.js";
import { engineRequestOf, loadEngineContext, patientFactsOf } from "./context.js";
import { emitPriorAuthEvents, type PriorAuthDecided } from "./events.js";
import { lockMember } from "./lightweight.js";
import { itemRowOf, type PriorAuthRow, type PriorAuthStatus, priorAuthRepo } from "./repo.js";
import { REOPENABLE, requireTransition, reviewedDecisions } from "./review.js";
import type { BundleSyncInput, ItemInput, ReopenInput, UpdateInput } from "./schemas.js";

/** the request, locked for the change; unknown: `missing` (E_EPA_09, or E_EPA_064 where the spec says so) */
export async function requirePriorAuth(
  tx: Queryable,
  tenantId: number,
  transactionId: string,
  missing: "E_EPA_09" | "E_EPA_064" = "E_EPA_09",
): Promise<PriorAuthRow> {
  const pa = await priorAuthRepo.find(tx, tenantId, transactionId, true);
  if (pa === undefined) throw new AppError(missing, `Prior authorization ${transactionId} not found`);
  return pa;
}

async function requireUser(tx: Queryable, tenantId: number, username: string): Promise<void> {
  if ((await userRepo.findByUsername(tx, tenantId, username)) === undefined)
    throw new AppError("E_EPA_10", `User ${username} not found`);
}

/** a change of status: the request's row, its history, the audit record, and the events it causes */
async function recordTransition(
  tx: Queryable,
  jobs: JobQueue,
  actor: TenantActor,
  pa: PriorAuthRow,
  change: { action: string; to: PriorAuthStatus; details?: Record<string, unknown> },
  events: {
    hookTypes: readonly EventHookType[];
    source: "ENGINE" | "REVIEWER";
    decided?: Omit<PriorAuthDecided, "priorAuthId" | "transactionId">;
    extra?: Record<string, unknown>;
  },
): Promise<void> {
  await priorAuthRepo.addHistory(tx, pa.id, {
    action: change.action,
    from: pa.status,
    to: change.to,
    actor: actor.actor,
    requestId: actor.requestId,
    details: change.details ?? {},
  });
  await recordAudit(tx, actor, {
    action: `prior-authorization.${change.action}`,
    entityType: "prior-authorization",
    entityKey: pa.transaction_id,
    details: { from: pa.status, to: change.to, ...(change.details ?? {}) },
  });
  if (events.hookTypes.length > 0)
    await emitPriorAuthEvents(
      tx,
      jobs,
      actor,
      pa.id,
      events.hookTypes,
      events.source,
      events.decided ?? null,
      events.extra,
    );
}

/**
 * Runs the engine again on a stored request (reopen, communication), as of now: the request's own earlier
 * decisions are left out of utilization and history. It returns to PENDING.
 */
export async function readjudicate(
  tx: Queryable,
  tenantId: number,
  pa: PriorAuthRow,
  now: Date,
): Promise<string> {
  const member = await tx.query<{ member_id: string }>("SELECT member_id FROM members WHERE id = $1", [
    pa.member_pk,
  ]);
  const memberId = (member[0] as { member_id: string }).member_id;
  const locked = await lockMember(tx, tenantId, memberId);
  if (locked === undefined) throw new Error(`member of ${pa.transaction_id} vanished`);
  const policy =
    pa.mode === "standard" && pa.policy_id !== null ? await policyRepo.findById(tx, pa.policy_id) : undefined;
  const request = engineRequestOf(
    pa.request,
    pa.request.diagnoses.map((diagnosis) => normalizeIcd10(diagnosis.code)),
  );
  const loaded = await loadEngineContext(
    tx,
    tenantId,
    {
      mode: pa.mode,
      member: { pk: locked.pk, memberId },
      policy,
      providerId: pa.provider_id ?? undefined,
      providerCchiNo: pa.provider_cchi_no,
      exceptPriorAuthId: pa.id,
    },
    request,
  );
  const facts = patientFactsOf(locked, pa.request);
  const decision = decide(request, { ...loaded, member: facts }, now);
  await priorAuthRepo.saveDecisions(
    tx,
    pa.id,
    decision.items.map((item) => itemRowOf(pa.request.items[item.index] as ItemInput, item)),
  );
  const memberAlerts = pa.request_alerts.filter((alert) =>
    alert.startsWith("Member information inconsistency"),
  );
  await priorAuthRepo.update(tx, pa.id, {
    status: "PENDING",
    note: decision.note,
    request_alerts: [...memberAlerts, ...decision.requestAlerts],
    engine_runs: pa.engine_runs + 1,
  });
  return decision.note;
}

/** the reviewer's decision on a request and its items (PATCH /approval-request/update) */
export function updatePriorAuth(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  transactionId: string,
  input: UpdateInput,
) {
  return db.transaction(async (tx) => {
    const pa = await requirePriorAuth(tx, actor.tenantId, transactionId);
    await requireUser(tx, actor.tenantId, input.erp_reviewer_id);
    requireTransition(pa.status, input.status);
    if (input.status === "REFERRED" && input.referral_cchi_code === undefined)
      throw new AppError("E_EPA_16", "referral_cchi_code is required when status is REFERRED");
    const items = await priorAuthRepo.listItems(tx, pa.id);
    const category = await memberCategory(tx, pa);
    await priorAuthRepo.saveDecisions(tx, pa.id, reviewedDecisions(items, input, category));
    const referred = input.status === "REFERRED";
    await priorAuthRepo.update(tx, pa.id, {
      status: input.status,
      reviewer_erp_id: input.erp_reviewer_id,
      approval_remarks: input.approval_remarks,
      referral_remarks: input.refferal_remarks,
      internal_referral_notes: input.internal_referral_notes,
      internal_notes: input.internal_notes,
      referral_cchi_code: input.referral_cchi_code,
      referral_valid_days: input.referral_valid_days,
      referred_at: referred ? new Date() : undefined,
    });
    await recordTransition(
      tx,
      jobs,
      actor,
      pa,
      {
        action: "update",
        to: input.status,
        details: { reviewer: input.erp_reviewer_id, items: input.items?.length ?? 0 },
      },
      {
        hookTypes: referred ? ["PRE_AUTH_RESULT", "REFERRED"] : ["PRE_AUTH_RESULT"],
        source: "REVIEWER",
        decided: { cause: "reviewed" },
      },
    );
  });
}

/** standard mode: the member's category in the policy's template, against which accepted items are checked */
async function memberCategory(tx: Queryable, pa: PriorAuthRow) {
  if (pa.mode !== "standard" || pa.policy_id === null) return "not-checked" as const;
  const link = await tx.query<{ category_code: string }>(
    "SELECT category_code FROM patient_policies WHERE policy_id = $1 AND member_pk = $2",
    [pa.policy_id, pa.member_pk],
  );
  const code = link[0]?.category_code;
  return code === undefined ? undefined : templateRepo.loadCategory(tx, pa.policy_id, code);
}

/** back to PENDING for reprocessing, with the engine run again (PATCH /approval-request/reopen) */
export function reopenPriorAuth(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  transactionId: string,
  input: ReopenInput,
  now: Date = new Date(),
) {
  return db.transaction(async (tx) => {
    const pa = await requirePriorAuth(tx, actor.tenantId, transactionId);
    await requireUser(tx, actor.tenantId, input.username);
    if (!REOPENABLE.includes(pa.status))
      throw new AppError("E_EPA_15", `A ${pa.status} prior authorization cannot be reopened`);
    const note = await readjudicate(tx, actor.tenantId, pa, now);
    await priorAuthRepo.update(tx, pa.id, {
      nphies_reopen_reason: input.nphies_reopen_reason,
      nphies_reopen_at: input.nphies_reopen_at,
      reopened_by: input.username,
    });
    const reopening = {
      reason: input.nphies_reopen_reason,
      at: input.nphies_reopen_at,
      username: input.username,
    };
    await recordTransition(
      tx,
      jobs,
      actor,
      pa,
      { action: "reopen", to: "PENDING", details: { ...reopening, note } },
      {
        hookTypes: ["REOPENED", "PRE_AUTH_RESULT"],
        source: "ENGINE",
        decided: { cause: "reopened", reopenReason: input.nphies_reopen_reason },
        extra: { reopen: reopening },
      },
    );
  });
}

/** cancel: final; a second cancel is 409 E_EPA_17 */
export function cancelPriorAuth(db: Db, jobs: JobQueue, actor: TenantActor, transactionId: string) {
  return db.transaction(async (tx) => {
    const pa = await requirePriorAuth(tx, actor.tenantId, transactionId);
    if (pa.status === "CANCELLED")
      throw new AppError("E_EPA_17", `Prior authorization ${transactionId} is already cancelled`);
    await priorAuthRepo.update(tx, pa.id, { status: "CANCELLED", cancelled_at: new Date() });
    await recordTransition(
      tx,
      jobs,
      actor,
      pa,
      { action: "cancel", to: "CANCELLED" },
      { hookTypes: [], source: "REVIEWER" },
    );
  });
}

/** records the NPHIES response bundle; the status stays as it is */
export function syncBundle(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  transactionId: string,
  input: BundleSyncInput,
) {
  return db.transaction(async (tx) => {
    const pa = await requirePriorAuth(tx, actor.tenantId, transactionId);
    await priorAuthRepo.update(tx, pa.id, input);
    await recordTransition(
      tx,
      jobs,
      actor,
      pa,
      { action: "bundle-sync", to: pa.status, details: { ...input } },
      { hookTypes: [], source: "REVIEWER" },
    );
  });
}
