import type { RequestContext } from "../../platform/context.js";
import type { Queryable } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import type { ClaimEvent } from "../../reference/nphies-fhir.js";
import { adjudicateNewRequest } from "../prior-auth/service.js";
import { type ItemRow, type PriorAuthRow, priorAuthRepo } from "../prior-auth/repo.js";
import { answeredBefore, messageReused, recordAnswer } from "./answers.js";
import type { Message } from "./bundle.js";
import { claimRequestOf } from "./claim-request.js";
import { claimResponseBundleOf } from "./claim-response.js";
import type { FhirOrigin } from "./origin.js";
import { fhirRequestRepo } from "./repo.js";

/**
 * A message whose Claim identifier is already used: the same Claim in a new message is answered with the
 * request as it now stands; another Claim under a used identifier is refused.
 */
async function answerAgain(ctx: RequestContext, hash: string, origin: FhirOrigin, path: string) {
  const earlier = await answeredBefore(ctx, origin.message_id, hash);
  if (earlier !== undefined) return earlier;
  const known = await fhirRequestRepo.findByTransactionId(ctx.db, ctx.tenantId, origin.claim_identifier.value);
  const pa = await priorAuthRepo.find(ctx.db, ctx.tenantId, origin.claim_identifier.value);
  if (known === undefined || pa === undefined || known.origin.claim_hash !== origin.claim_hash)
    throw new AppError(
      "E_FHIR_DUPLICATE_409",
      `Claim identifier ${origin.claim_identifier.value} is already used`,
      [`${path}: ${origin.claim_identifier.value} is already used by another request (with other content)`],
    );
  const items = await priorAuthRepo.listItems(ctx.db, pa.id);
  return JSON.stringify(
    claimResponseBundleOf(pa, { ...known.origin, message_id: origin.message_id }, items, ctx.now()),
  );
}

/**
 * A priorauth-request or claim-request: adjudicated as a prior authorization like any other, its origin
 * and answer recorded in the same transaction (so a resend finds it). A resend costs nothing up front: the
 * Claim's identifier is then taken, and the conflict leads to the earlier answer.
 */
export async function answerClaimMessage(ctx: RequestContext, message: Message, hash: string) {
  const event = message.event as ClaimEvent;
  const { input, origin, paths } = claimRequestOf(message, event);
  let response: string | undefined;
  const record = async (tx: Queryable, stored: { pa: PriorAuthRow; items: ItemRow[] }) => {
    response = JSON.stringify(claimResponseBundleOf(stored.pa, origin, stored.items, ctx.now()));
    await Promise.all([
      fhirRequestRepo.insert(tx, ctx.tenantId, {
        prior_authorization_id: stored.pa.id,
        transaction_id: stored.pa.transaction_id,
        origin,
        responses_sent: 1,
        complete_sent: 0,
      }),
      recordAnswer(tx, ctx, message, hash, input.transaction_id, response),
    ]);
  };
  try {
    await withConflicts(() => adjudicateNewRequest(ctx, input, record), {
      fhir_messages_pkey: () => messageReused(origin.message_id),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "E_EPA_069")
      return answerAgain(ctx, hash, origin, paths.identifier);
    throw error;
  }
  if (response === undefined) throw new Error("the answer is built inside the create's transaction");
  return response;
}
