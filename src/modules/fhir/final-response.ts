import type { TenantActor } from "../../platform/audit/audit.js";
import type { Queryable } from "../../platform/db/db.js";
import { emitEvent, FHIR_MESSAGE_EVENT } from "../../platform/events/outbox.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { PriorAuthDecided } from "../prior-auth/events.js";
import { priorAuthRepo } from "../prior-auth/repo.js";
import { providerRepo } from "../providers/repo.js";
import { heldForReview } from "./claim-answer.js";
import { claimResponseBundleOf, decisionHashOf, requestOutcome } from "./claim-response.js";
import { fhirRequestRepo } from "./repo.js";

/**
 * A request that came as a NPHIES message is answered again when its decision changes after the first
 * answer (a reviewer's decision, a reopen, a communication that let the engine decide): the response goes
 * to the tenant's NPHIES endpoint (a webhook of hook type NPHIES). While the request still waits for a
 * person nothing is sent; a complete response after an earlier complete one is a reissue, its reason the
 * reopen's (the reopen reasons are NPHIES's reissue reasons) or a correction.
 */
export async function sendFinalResponse(
  tx: Queryable,
  jobs: JobQueue,
  actor: TenantActor,
  decided: PriorAuthDecided,
): Promise<void> {
  if (decided.cause === "created") return;
  const known = await fhirRequestRepo.findByPriorAuthId(tx, decided.priorAuthId);
  if (known === undefined) return;
  // a transfer or a resubmission is answered once a reviewer has decided it
  if (heldForReview(known.origin) && known.complete_sent === 0 && decided.cause !== "reviewed") return;
  const [pa, items] = await Promise.all([
    priorAuthRepo.findById(tx, decided.priorAuthId),
    priorAuthRepo.listItems(tx, decided.priorAuthId),
  ]);
  if (pa === undefined || requestOutcome(items) === "pended") return;
  // a re-run that decides what was already sent is no news; a reviewer's decision always is
  const decision = decisionHashOf(items);
  if (decided.cause !== "reviewed" && decision === known.sent_decision) return;
  const reissue = known.complete_sent > 0 ? (decided.reopenReason?.toLowerCase() ?? "correction") : undefined;
  const [counts, referred] = await Promise.all([
    fhirRequestRepo.countSent(tx, decided.priorAuthId, decision),
    // only a transfer's answer names the provider referred to
    known.origin.transfer === true && pa.referral_cchi_code !== null
      ? providerRepo.findByCchiNo(tx, actor.tenantId, pa.referral_cchi_code)
      : undefined,
  ]);
  await emitEvent(tx, jobs, actor.tenantId, {
    hookType: "NPHIES",
    eventType: FHIR_MESSAGE_EVENT,
    data: claimResponseBundleOf(pa, known.origin, items, new Date(), {
      number: counts.responses_sent,
      ...(reissue === undefined ? {} : { reissue }),
      ...(referred === undefined ? {} : { transferTo: { licence: referred.cchi_no, name: referred.name } }),
    }),
    subject: `prior-auth:${pa.transaction_id}`,
    requestId: actor.requestId,
  });
}
