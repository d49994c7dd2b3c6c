import { recordAudit, type TenantActor } from "../../../platform/audit/audit.js";
import type { Db } from "../../../platform/db/db.js";
import { AppError } from "../../../platform/http/errors.js";
import type { JobQueue } from "../../../platform/jobs/queue.js";
import { emitPriorAuthEvents } from "../events.js";
import { priorAuthRepo } from "../repo.js";
import { readjudicate, requirePriorAuth } from "../workflow.js";
import { communicationRepo } from "./repo.js";
import type { CommunicationInput } from "./schemas.js";

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
): Promise<number> {
  return db.transaction(async (tx) => {
    const pa = await requirePriorAuth(tx, actor.tenantId, input.transaction_id, "E_EPA_064");
    if (pa.status === "CANCELLED")
      throw new AppError("E_EPA_15", `Prior authorization ${input.transaction_id} is cancelled`);
    const id = await communicationRepo.insert(tx, actor.tenantId, pa.id, input);
    const note = await readjudicate(tx, actor.tenantId, pa, now);
    await priorAuthRepo.addHistory(tx, pa.id, {
      action: "communication",
      from: pa.status,
      to: "PENDING",
      actor: actor.actor,
      requestId: actor.requestId,
      details: { communication_id: id, note },
    });
    await recordAudit(tx, actor, {
      action: "prior-authorization.communication",
      entityType: "prior-authorization",
      entityKey: pa.transaction_id,
      details: { communication_id: id, from: pa.status, to: "PENDING" },
    });
    const { transaction_id: _t, ...communication } = input;
    await emitPriorAuthEvents(
      tx,
      jobs,
      actor,
      pa.id,
      ["COMMUNICATION", "PRE_AUTH_RESULT"],
      "ENGINE",
      { cause: "communicated" },
      { communication: { id, ...communication } },
    );
    return id;
  });
}
