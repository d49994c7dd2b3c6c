import { recordAudit } from "../../../platform/audit/audit.js";
import type { RequestContext } from "../../../platform/context.js";
import { emitEvent } from "../../../platform/events/outbox.js";
import { publish } from "../../../platform/events/reactions.js";
import { AppError } from "../../../platform/http/errors.js";
import { userRepo } from "../../users/repo.js";
import { PRIOR_AUTH_INFORMATION_REQUESTED } from "../events.js";
import { eventDataOf } from "../present.js";
import { type ItemRow, priorAuthRepo } from "../repo.js";
import { requirePriorAuth } from "../workflow.js";
import { informationRequestRepo } from "./repo.js";
import type { InformationRequestInput } from "./schemas.js";

/** what asking needs of its caller: the API's request context, or the console's signed-in reviewer */
export type InformationRequestContext = Pick<
  RequestContext,
  "tenantId" | "actor" | "requestId" | "db" | "jobs" | "now"
>;

/** the 0-based indexes of the items named by erp_item_id, in the order named; an unknown one is E_EPA_11 */
function itemIndexesOf(items: readonly ItemRow[], erpItemIds: readonly string[]): number[] {
  const indexes = new Set<number>();
  for (const erpItemId of erpItemIds) {
    const item = items.find((candidate) => candidate.erp_item_id === erpItemId);
    if (item === undefined) throw new AppError("E_EPA_11", `Item ${erpItemId} not found`);
    indexes.add(item.item_index);
  }
  return [...indexes];
}

/**
 * A reviewer asks the provider for information (POST /communication-request/create, the console): stored,
 * with its history entry, audit record, COMMUNICATION_REQUEST webhook event and the domain event that
 * lets the FHIR area send NPHIES a communication-request, all in one transaction. The request's status
 * does not change: it waits for the answer. Checked in order: the request (404 E_EPA_064), the reviewer
 * (E_EPA_10), not cancelled (422 E_EPA_15), each named item (E_EPA_11).
 */
export function createInformationRequest(
  ctx: InformationRequestContext,
  input: InformationRequestInput,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const pa = await requirePriorAuth(tx, ctx.tenantId, input.transaction_id, "E_EPA_064");
    if ((await userRepo.findByUsername(tx, ctx.tenantId, input.erp_reviewer_id)) === undefined)
      throw new AppError("E_EPA_10", `User ${input.erp_reviewer_id} not found`);
    if (pa.status === "CANCELLED")
      throw new AppError("E_EPA_15", `Prior authorization ${input.transaction_id} is cancelled`);
    const items = await priorAuthRepo.listItems(tx, pa.id);
    const erpItemIds = [...new Set(input.erp_item_ids ?? [])];
    const itemIndexes = itemIndexesOf(items, erpItemIds);
    const stored = await informationRequestRepo.insert(tx, ctx.tenantId, pa.id, {
      reviewer: input.erp_reviewer_id,
      content: input.content,
      erpItemIds,
    });
    const asked = {
      id: stored.id,
      content: input.content,
      erp_item_ids: erpItemIds,
      reviewer: input.erp_reviewer_id,
      created_at: stored.created_at.toISOString(),
    };
    await priorAuthRepo.addHistory(tx, pa.id, {
      action: "information-request",
      from: pa.status,
      to: pa.status,
      actor: ctx.actor,
      requestId: ctx.requestId,
      details: { information_request_id: stored.id, reviewer: asked.reviewer, erp_item_ids: erpItemIds },
    });
    await recordAudit(tx, ctx, {
      action: "prior-authorization.information-request",
      entityType: "prior-authorization",
      entityKey: pa.transaction_id,
      details: { information_request_id: stored.id, reviewer: asked.reviewer, status: pa.status },
    });
    await emitEvent(tx, ctx.jobs, ctx.tenantId, {
      hookType: "COMMUNICATION",
      eventType: "COMMUNICATION_REQUEST",
      data: { ...eventDataOf(pa, items, "REVIEWER"), communication_request: asked },
      subject: `prior-auth:${pa.transaction_id}`,
      transactionType: pa.transaction_type,
      requestId: ctx.requestId,
    });
    await publish(tx, ctx.jobs, ctx, PRIOR_AUTH_INFORMATION_REQUESTED, {
      priorAuthId: pa.id,
      transactionId: pa.transaction_id,
      informationRequestId: stored.id,
      content: input.content,
      itemIndexes,
      reviewer: input.erp_reviewer_id,
      createdAt: asked.created_at,
    });
    return stored.id;
  });
}
