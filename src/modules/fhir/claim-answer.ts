import type { RequestContext } from "../../platform/context.js";
import type { Queryable } from "../../platform/db/db.js";
import { emitEvent, FHIR_MESSAGE_EVENT } from "../../platform/events/outbox.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import { ADJUDICATION_ERROR, type AdjudicationError, type ClaimEvent } from "../../reference/nphies-fhir.js";
import type { ItemRow, PriorAuthRow } from "../prior-auth/repo.js";
import { priorAuthRepo } from "../prior-auth/repo.js";
import { adjudicateNewRequest } from "../prior-auth/service.js";
import { answeredBefore, answerOnce, messageReused, recordAnswer } from "./answers.js";
import type { Message } from "./bundle.js";
import { type ClaimRead, createInputOf, readClaimRequest } from "./claim-request.js";
import {
  claimErrorBundleOf,
  claimResponseBundleOf,
  decisionHashOf,
  requestOutcome,
} from "./claim-response.js";
import type { FhirOrigin } from "./origin.js";
import { fhirRequestRepo } from "./repo.js";
import { findSubject } from "./subject.js";

/**
 * A message whose Claim identifier is already used: the same Claim in a new message is answered with the
 * request as it now stands; another Claim under a used identifier is refused.
 */
async function answerAgain(ctx: RequestContext, hash: string, origin: FhirOrigin, path: string) {
  const earlier = await answeredBefore(ctx, origin.message_id, hash);
  if (earlier !== undefined) return earlier;
  const known = await fhirRequestRepo.findByTransactionId(
    ctx.db,
    ctx.tenantId,
    origin.claim_identifier.value,
  );
  const pa = await priorAuthRepo.find(ctx.db, ctx.tenantId, origin.claim_identifier.value);
  if (known === undefined || pa === undefined || known.origin.claim_hash !== origin.claim_hash)
    throw new AppError(
      "E_FHIR_DUPLICATE_409",
      `Claim identifier ${origin.claim_identifier.value} is already used`,
      [`${path}: ${origin.claim_identifier.value} is already used by another request (with other content)`],
    );
  const items = await priorAuthRepo.listItems(ctx.db, pa.id);
  return JSON.stringify(
    claimResponseBundleOf(pa, { ...known.origin, message_id: origin.message_id }, items, ctx.now(), {
      number: known.responses_sent,
    }),
  );
}

/** a transfer or a resubmission waits for a reviewer whatever the engine decided */
export const heldForReview = (origin: FhirOrigin) => origin.transfer === true || origin.resubmission === true;

/** who the member is and which policy covers it, or why the payer cannot say (an error answer) */
async function subjectOf(ctx: RequestContext, read: ClaimRead) {
  const subject = await findSubject(ctx.db, ctx.tenantId, read.keys, read.day);
  if (ctx.mode === "lightweight") {
    // lightweight tenants create what a request names: the member and policy the message gives
    const memberId = subject.found ? subject.member.memberId : read.named.memberId;
    const policy = subject.found ? subject.policies[0] : undefined;
    if (memberId === undefined) {
      const error: AdjudicationError = ADJUDICATION_ERROR.noMemberFound;
      return { error, why: "The message names no member" };
    }
    return {
      member: subject.found ? subject.member : { memberId, gender: undefined, dateOfBirth: undefined },
      policy: policy ?? {
        policy_no: read.named.policyNo ?? "NPHIES",
        ph_erp_id: read.named.holder ?? read.origin.payer_license ?? "NPHIES",
      },
    };
  }
  if (!subject.found) {
    const error: AdjudicationError =
      subject.errorCode === "1657"
        ? ADJUDICATION_ERROR.memberNumberNotFound
        : ADJUDICATION_ERROR.noMemberFound;
    return { error, why: subject.message };
  }
  const policy = subject.policies[0];
  if (policy === undefined)
    return {
      error: ADJUDICATION_ERROR.memberNumberNotFound,
      why: `Member ${subject.member.memberId} holds no policy with this payer`,
    };
  return { member: subject.member, policy };
}

/** the error answer to a request that cannot be adjudicated, recorded as the message's answer */
const answerError = (
  ctx: RequestContext,
  message: Message,
  hash: string,
  read: ClaimRead,
  error: AdjudicationError,
  why: string,
) =>
  answerOnce(ctx, message, hash, async () => ({
    bundle: claimErrorBundleOf(read.origin, error, why, ctx.now()),
    transactionId: null,
  }));

/**
 * A priorauth-request or claim-request: the member and policy found in the payer's data, then adjudicated
 * as a prior authorization like any other, its origin and answer recorded in the same transaction (so a
 * resend finds it). A request that asked for deferred processing is answered queued, and the decision goes
 * to the tenant's NPHIES endpoint as soon as the answer is committed (or after a reviewer's decision).
 */
export async function answerClaimMessage(ctx: RequestContext, message: Message, hash: string) {
  const read = readClaimRequest(message, message.event as ClaimEvent);
  const found = await subjectOf(ctx, read);
  if (found.error !== undefined) return answerError(ctx, message, hash, read, found.error, found.why);
  const input = createInputOf(read, found.member, found.policy);
  const { origin } = read;
  let response: string | undefined;
  const record = async (tx: Queryable, stored: { pa: PriorAuthRow; items: ItemRow[] }) => {
    const at = ctx.now();
    // a transfer waits for a reviewer to name the receiving provider; a deferred request for nobody
    const held = heldForReview(origin);
    const decided = !held && requestOutcome(stored.items) !== "pended";
    const sendLater = origin.deferred === true && decided;
    response = JSON.stringify(
      claimResponseBundleOf(stored.pa, origin, stored.items, at, {
        number: 1,
        queued: origin.deferred === true || held,
      }),
    );
    await Promise.all([
      fhirRequestRepo.insert(tx, ctx.tenantId, {
        prior_authorization_id: stored.pa.id,
        transaction_id: stored.pa.transaction_id,
        origin,
        responses_sent: sendLater ? 2 : 1,
        complete_sent: decided ? 1 : 0,
        sent_decision: decided ? decisionHashOf(stored.items) : null,
      }),
      recordAnswer(tx, ctx, message, hash, input.transaction_id, response),
      sendLater
        ? emitEvent(tx, ctx.jobs, ctx.tenantId, {
            hookType: "NPHIES",
            eventType: FHIR_MESSAGE_EVENT,
            data: claimResponseBundleOf(stored.pa, origin, stored.items, at, { number: 2 }),
            subject: `prior-auth:${stored.pa.transaction_id}`,
            requestId: ctx.requestId,
          })
        : undefined,
    ]);
  };
  try {
    await withConflicts(() => adjudicateNewRequest(ctx, input, record), {
      fhir_messages_pkey: () => messageReused(origin.message_id),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "E_EPA_069")
      return answerAgain(ctx, hash, origin, read.paths.identifier);
    if (error instanceof AppError && error.code === "E_EPA_02")
      return answerError(ctx, message, hash, read, ADJUDICATION_ERROR.diagnosis, error.message);
    // the create looks the provider up anyway: an unknown licence is its answer, not a look-up of ours
    if (error instanceof AppError && error.code === "E_EMP_01")
      return answerError(
        ctx,
        message,
        hash,
        read,
        ADJUDICATION_ERROR.providerNotContracted,
        `Provider licence ${input.medical_provider_cchi_no} is not a provider of this payer`,
      );
    throw error;
  }
  if (response === undefined) throw new Error("the answer is built inside the create's transaction");
  return response;
}
