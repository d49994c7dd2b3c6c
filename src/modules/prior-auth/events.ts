import type { TenantActor } from "../../platform/audit/audit.js";
import type { Queryable } from "../../platform/db/db.js";
import { type EventHookType, emitEvent, hasReceivers } from "../../platform/events/outbox.js";
import { publish, topic } from "../../platform/events/reactions.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import { eventDataOf } from "./present.js";
import { type ItemRow, type PriorAuthRow, priorAuthRepo } from "./repo.js";

export type DecisionCause = "created" | "reviewed" | "reopened" | "communicated";
export interface PriorAuthDecided {
  priorAuthId: number;
  transactionId: string;
  cause: DecisionCause;
  /** a reopen's reason (REOPEN_REASONS) */
  reopenReason?: string;
}
/** published whenever a request's decisions are made or change, in the change's transaction */
export const PRIOR_AUTH_DECIDED = topic<PriorAuthDecided>("prior-auth.decided");

export interface PriorAuthInformationRequested {
  priorAuthId: number;
  transactionId: string;
  informationRequestId: number;
  content: string;
  /** the items asked about, by 0-based index in the request */
  itemIndexes: number[];
  /** the reviewer user's username */
  reviewer: string;
  /** when it was asked (ISO 8601, as stored) */
  createdAt: string;
}
/** published when a reviewer asks the provider for information, in the asking transaction */
export const PRIOR_AUTH_INFORMATION_REQUESTED = topic<PriorAuthInformationRequested>(
  "prior-auth.information-requested",
);

/** whether any target receives the PRE_AUTH_RESULT of a request of `transactionType` now */
export function resultHasReceivers(
  tx: Queryable,
  tenantId: number,
  transactionType: PriorAuthRow["transaction_type"],
): Promise<boolean> {
  return hasReceivers(tx, tenantId, {
    hookType: "PRE_AUTH_RESULT",
    eventType: "PRE_AUTH_RESULT",
    transactionType,
  });
}

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
  /** set when the decisions were made or changed: then PRIOR_AUTH_DECIDED is published too */
  decided: Omit<PriorAuthDecided, "priorAuthId" | "transactionId"> | null,
  extra: Record<string, unknown> = {},
  /**
   * the request as it now is, when the caller has it at hand (create): saves reading it back; and
   * `receivers: "none"` when the caller found that no target receives its PRE_AUTH_RESULT
   * (`resultHasReceivers`): that event is then not stored, as nothing would ever read it
   */
  known?: { pa: PriorAuthRow; items: ItemRow[]; receivers?: "none" },
): Promise<void> {
  const row = known?.pa ?? (await priorAuthRepo.findById(tx, priorAuthId));
  if (row === undefined)
    throw new Error(`prior authorization ${priorAuthId} vanished inside its transaction`);
  const emitted =
    known?.receivers === "none" ? hookTypes.filter((hookType) => hookType !== "PRE_AUTH_RESULT") : hookTypes;
  if (emitted.length > 0) {
    const items = known?.items ?? (await priorAuthRepo.listItems(tx, priorAuthId));
    const data = eventDataOf(row, items, source);
    for (const hookType of emitted) {
      await emitEvent(tx, jobs, actor.tenantId, {
        hookType,
        eventType: hookType,
        data: hookType === "PRE_AUTH_RESULT" ? data : { ...data, ...extra },
        subject: `prior-auth:${row.transaction_id}`,
        transactionType: row.transaction_type,
        requestId: actor.requestId,
      });
    }
  }
  if (decided !== null) {
    await publish(tx, jobs, actor, PRIOR_AUTH_DECIDED, {
      priorAuthId,
      transactionId: row.transaction_id,
      ...decided,
    });
  }
}
