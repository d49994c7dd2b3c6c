import { recordAudit, type TenantActor } from "../../../platform/audit/audit.js";
import type { Db, Queryable } from "../../../platform/db/db.js";
import { AppError } from "../../../platform/http/errors.js";
import type { JobQueue } from "../../../platform/jobs/queue.js";
import { emitPriorAuthEvents } from "../events.js";
import { type PriorAuthRow, priorAuthRepo } from "../repo.js";
import { readjudicate, requirePriorAuth } from "../workflow.js";
import { communicationRepo } from "./repo.js";
import type { CommunicationInput } from "./schemas.js";

export interface CommunicationOptions {
  /**
   * "always" (the JSON API): the request goes back to PENDING and is re-evaluated; "if-pending" (NPHIES):
   * only a request still waiting for a decision is, a decided one just keeps the communication
   */
  reevaluate?: "always" | "if-pending";
  /**
   * What the caller writes first in the communication's transaction (the FHIR area: the attachments and
   * its answer); returns the communication to store
   */
  alongside?: (tx: Queryable, pa: PriorAuthRow) => Promise<CommunicationInput>;
}

/**
 * A message about a prior authorization: stored, and the request goes back to PENDING and is
 * re-evaluated by the engine with it (spec: "re-evaluated with the new information"). A cancelled
 * request can take no more (422 E_EPA_15).
 */
export function createCommunication(
  db: Db,
  jobs: JobQueue,
  actor: TenantActor,
  input: CommunicationInput,
  now: Date = new Date(),
  options: CommunicationOptions = {},
): Promise<number> {
  return db.transaction(async (tx) => {
    const pa = await requirePriorAuth(tx, actor.tenantId, input.transaction_id, "E_EPA_064");
    if (pa.status === "CANCELLED")
      throw new AppError("E_EPA_15", `Prior authorization ${input.transaction_id} is cancelled`);
    const stored = options.alongside === undefined ? input : await options.alongside(tx, pa);
    const id = await communicationRepo.insert(tx, actor.tenantId, pa.id, stored);
    const reevaluated = options.reevaluate !== "if-pending" || pa.status === "PENDING";
    const note = reevaluated ? await readjudicate(tx, actor.tenantId, pa, now) : null;
    const to = reevaluated ? "PENDING" : pa.status;
    await priorAuthRepo.addHistory(tx, pa.id, {
      action: "communication",
      from: pa.status,
      to,
      actor: actor.actor,
      requestId: actor.requestId,
      details: reevaluated ? { communication_id: id, note } : { communication_id: id, reevaluated },
    });
    await recordAudit(tx, actor, {
      action: "prior-authorization.communication",
      entityType: "prior-authorization",
      entityKey: pa.transaction_id,
      details: { communication_id: id, from: pa.status, to },
    });
    const { transaction_id: _t, ...communication } = stored;
    await emitPriorAuthEvents(
      tx,
      jobs,
      actor,
      pa.id,
      // a request not re-evaluated has no new result to tell
      reevaluated ? ["COMMUNICATION", "PRE_AUTH_RESULT"] : ["COMMUNICATION"],
      "ENGINE",
      reevaluated ? { cause: "communicated" } : null,
      { communication: { id, ...communication } },
    );
    return id;
  });
}
