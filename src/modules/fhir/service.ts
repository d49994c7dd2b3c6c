import type { RequestContext } from "../../platform/context.js";
import { pgErrorOf, type Queryable, UNIQUE_VIOLATION } from "../../platform/db/db.js";
import { AppError, withConflicts } from "../../platform/http/errors.js";
import type { ClaimEvent } from "../../reference/nphies-fhir.js";
import type { FhirOrigin } from "../prior-auth/fhir/origin.js";
import { claimResponseBundleOf } from "../prior-auth/fhir/response.js";
import { type ItemRow, type PriorAuthRow, priorAuthRepo } from "../prior-auth/repo.js";
import { adjudicateNewRequest } from "../prior-auth/service.js";
import { type Message, readMessage } from "./bundle.js";
import { type ClaimPaths, claimRequestOf } from "./claim-request.js";
import { answerEligibility } from "./eligibility.js";
import { fhirMessageRepo } from "./repo.js";

/** the JSON API's not-found answers of a create, said of the element of the message that named the thing */
const PATH_OF_ERROR: Partial<Record<string, keyof ClaimPaths>> = {
  E_EPA_01: "member",
  E_EPH_01: "policy",
  E_EPA_014: "policy",
  E_EMP_01: "provider",
  E_EPA_02: "diagnoses",
};

function atPath(error: unknown, paths: ClaimPaths): unknown {
  if (!(error instanceof AppError)) return error;
  const key = PATH_OF_ERROR[error.code];
  if (key === undefined) return error;
  return new AppError(error.code, error.message, [`${paths[key]}: ${error.message}`]);
}

/**
 * A message whose Claim identifier is already used: the same message resent (its first answer again), the
 * same MessageHeader id with other content (refused), or the same Claim in a new message (the request as
 * it now stands, answering this message); another Claim under a used identifier is refused.
 */
async function answerAgain(ctx: RequestContext, hash: string, origin: FhirOrigin, path: string) {
  const earlier = await answeredBefore(ctx, origin.message_id, hash);
  if (earlier !== undefined) return earlier;
  const pa = await priorAuthRepo.find(ctx.db, ctx.tenantId, origin.claim_identifier.value);
  if (pa?.fhir?.claim_hash !== origin.claim_hash)
    throw new AppError(
      "E_FHIR_DUPLICATE_409",
      `Claim identifier ${origin.claim_identifier.value} is already used`,
      [`${path}: ${origin.claim_identifier.value} is already used by another request (with other content)`],
    );
  const items = await priorAuthRepo.listItems(ctx.db, pa.id);
  return JSON.stringify(
    claimResponseBundleOf(pa, { ...pa.fhir, message_id: origin.message_id }, items, ctx.now()),
  );
}

/** the answer recorded for a message id, when it had the same content; refused when it had other */
async function answeredBefore(ctx: RequestContext, messageId: string, hash: string) {
  const earlier = await fhirMessageRepo.find(ctx.db, ctx.tenantId, messageId);
  if (earlier !== undefined && earlier.content_hash !== hash) throw messageReused(messageId);
  return earlier?.response;
}

const messageReused = (messageId: string) =>
  new AppError("E_FHIR_DUPLICATE_409", `MessageHeader ${messageId} was already processed`, [
    `Bundle.entry[0].resource.id: ${messageId} was already processed with other content`,
  ]);

/**
 * A priorauth-request or claim-request: adjudicated as a prior authorization like any other, its answer
 * recorded in the same transaction (so a resend finds it). A resend costs nothing up front: the Claim's
 * identifier is then taken, and the conflict leads to the earlier answer.
 */
async function answerClaim(ctx: RequestContext, message: Message, event: ClaimEvent, hash: string) {
  const { input, origin, paths } = claimRequestOf(message, event);
  let response: string | undefined;
  const record = (tx: Queryable, stored: { pa: PriorAuthRow; items: ItemRow[] }) => {
    response = JSON.stringify(claimResponseBundleOf(stored.pa, origin, stored.items, ctx.now()));
    return fhirMessageRepo.record(tx, ctx.tenantId, recordOf(message, hash, input.transaction_id), response);
  };
  try {
    await withConflicts(() => adjudicateNewRequest(ctx, input, origin, record), {
      fhir_messages_pkey: () => messageReused(origin.message_id),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "E_EPA_069")
      return answerAgain(ctx, hash, origin, paths.identifier);
    throw atPath(error, paths);
  }
  if (response === undefined) throw new Error("the answer is built inside the create's transaction");
  return response;
}

const recordOf = (message: Message, hash: string, transactionId: string | null) => ({
  messageId: message.header.id,
  event: message.event,
  contentHash: hash,
  transactionId,
});

/**
 * `$process-message`: a NPHIES request message (and the hash of its bytes) answered with its response
 * message (its JSON text, as stored and sent). A message resent with the same MessageHeader id is answered as the first time; the
 * same id with other content is refused.
 */
export async function processMessage(ctx: RequestContext, body: unknown, hash: string): Promise<string> {
  const message = readMessage(body);
  if (message.event !== "eligibility-request") return answerClaim(ctx, message, message.event, hash);
  const earlier = await answeredBefore(ctx, message.header.id, hash);
  if (earlier !== undefined) return earlier;
  const response = JSON.stringify(await answerEligibility(ctx, message));
  try {
    await fhirMessageRepo.record(ctx.db, ctx.tenantId, recordOf(message, hash, null), response);
  } catch (error) {
    // the same message answered meanwhile by a concurrent resend: the answer recorded first stands
    if (pgErrorOf(error)?.code !== UNIQUE_VIOLATION) throw error;
    return (await answeredBefore(ctx, message.header.id, hash)) ?? response;
  }
  return response;
}
