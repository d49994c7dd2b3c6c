import type { TenantActor } from "../../platform/audit/audit.js";
import type { Queryable } from "../../platform/db/db.js";
import { type EventHookType, emitEvent, FHIR_MESSAGE_EVENT } from "../../platform/events/outbox.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { claimResponseBundleOf } from "./fhir/response.js";
import { eventDataOf } from "./present.js";
import { type ItemRow, type PriorAuthRow, priorAuthRepo } from "./repo.js";

/**
 * The request's events, in the transaction of the change: each carries the whole request as it now is
 * (the spec's PRE_AUTH_RESULT `data`), plus what the event is about (`extra`: the communication, the
 * reopening). They share the request as their subject, so a webhook gets them in this order.
 */
export async function emitPriorAuthEvents(
  tx: Queryable,
  jobs: JobQueue,
  actor: TenantActor,
  priorAuthId: number,
  hookTypes: readonly EventHookType[],
  source: "ENGINE" | "REVIEWER",
  extra: Record<string, unknown> = {},
  /** the request as it now is, when the caller has it at hand (create): saves reading it back */
  known?: { pa: PriorAuthRow; items: ItemRow[] },
): Promise<void> {
  const row = known?.pa ?? (await priorAuthRepo.findById(tx, priorAuthId));
  if (row === undefined)
    throw new Error(`prior authorization ${priorAuthId} vanished inside its transaction`);
  const items = known?.items ?? (await priorAuthRepo.listItems(tx, priorAuthId));
  const data = eventDataOf(row, items, source);
  for (const hookType of hookTypes) {
    await emitEvent(tx, jobs, actor.tenantId, {
      hookType,
      eventType: hookType,
      data: hookType === "PRE_AUTH_RESULT" ? data : { ...data, ...extra },
      subject: `prior-auth:${row.transaction_id}`,
      transactionType: row.transaction_type,
      requestId: actor.requestId,
    });
  }
  // a request that came as a NPHIES message is answered again whenever its decision changes after the
  // first answer (the create's reply): the response bundle goes to the tenant's NPHIES endpoint
  if (row.fhir !== null && known === undefined && hookTypes.includes("PRE_AUTH_RESULT"))
    await emitEvent(tx, jobs, actor.tenantId, {
      hookType: "NPHIES",
      eventType: FHIR_MESSAGE_EVENT,
      data: claimResponseBundleOf(row, row.fhir, items, new Date()),
      subject: `prior-auth:${row.transaction_id}`,
      requestId: actor.requestId,
    });
}
