import { recordAudit, type TenantActor } from "../../../platform/audit/audit.js";
import type { Db } from "../../../platform/db/db.js";
import { AppError, refusal } from "../../../platform/http/errors.js";
import { priorAuthRepo } from "../repo.js";
import { supportingInfoRepo } from "./repo.js";
import type { ForClaimInput, ForPreauthInput, SupportingInfoInput } from "./schemas.js";

/** an entry's end may not come before its start */
export function checkSupportingInfo(
  entries: readonly SupportingInfoInput[],
  path: (index: number) => string,
) {
  const problems = entries.flatMap((entry, index) =>
    entry.start_date !== undefined && entry.end_date !== undefined && entry.end_date < entry.start_date
      ? [`${path(index)}.end_date must not be before start_date`]
      : [],
  );
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
}

/**
 * Attaches an entry to a prior authorization (by transaction_id) or to a claim: a request submitted with
 * transaction_type CLAIM, whose transaction_id is the claim number.
 */
export async function addSupportingInfo(
  db: Db,
  actor: TenantActor,
  target: { kind: "PREAUTH"; input: ForPreauthInput } | { kind: "CLAIM"; input: ForClaimInput },
): Promise<number> {
  const { transaction_id: _t, claim_number: _c, ...entry } = target.input as ForPreauthInput & ForClaimInput;
  checkSupportingInfo([entry], () => "supporting_info");
  const reference = target.kind === "PREAUTH" ? target.input.transaction_id : target.input.claim_number;
  return db.transaction(async (tx) => {
    const request = await priorAuthRepo.find(tx, actor.tenantId, reference);
    if (target.kind === "PREAUTH" && request === undefined)
      throw new AppError("E_EPA_064", `Prior authorization ${reference} not found`);
    if (target.kind === "CLAIM" && request?.transaction_type !== "CLAIM")
      throw new AppError("E_CLAIM_001", `Claim ${reference} not found`);
    if (request === undefined) throw new Error("unreachable");
    const [id] = await supportingInfoRepo.insertMany(tx, actor.tenantId, request.id, target.kind, [entry]);
    await recordAudit(tx, actor, {
      action: `supporting-info.create-for-${target.kind === "PREAUTH" ? "preauth" : "claim"}`,
      entityType: "prior-authorization",
      entityKey: reference,
      details: { supporting_info_id: id, code: entry.code ?? null },
    });
    return id as number;
  });
}
