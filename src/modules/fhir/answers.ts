import type { Bundle } from "@medplum/fhirtypes";
import type { RequestContext } from "../../platform/context.js";
import { pgErrorOf, type Queryable, UNIQUE_VIOLATION } from "../../platform/db/db.js";
import { AppError } from "../../platform/http/errors.js";
import type { Message } from "./bundle.js";
import { fhirMessageRepo } from "./repo.js";

/**
 * Every message is answered once: its answer is recorded under its MessageHeader id, and a resend (same id,
 * same bytes) gets the recorded answer again; the same id with other content is refused.
 */

export const messageReused = (messageId: string) =>
  new AppError("E_FHIR_DUPLICATE_409", `MessageHeader ${messageId} was already processed`, [
    `Bundle.entry[0].resource.id: ${messageId} was already processed with other content`,
  ]);

/** the answer recorded for a message id, when it had the same content; refused when it had other */
export async function answeredBefore(ctx: RequestContext, messageId: string, hash: string) {
  const earlier = await fhirMessageRepo.find(ctx.db, ctx.tenantId, messageId);
  if (earlier !== undefined && earlier.content_hash !== hash) throw messageReused(messageId);
  return earlier?.response;
}

/** records a message's answer (in the caller's transaction when `db` is one) */
export const recordAnswer = (
  db: Queryable,
  ctx: RequestContext,
  message: Message,
  hash: string,
  transactionId: string | null,
  response: string,
) =>
  fhirMessageRepo.record(
    db,
    ctx.tenantId,
    { messageId: message.header.id, event: message.event, contentHash: hash, transactionId },
    response,
  );

/**
 * Answers a message whose answer changes nothing the answer depends on (an eligibility check, a status
 * check) and records it; a concurrent resend answered meanwhile: the answer recorded first stands.
 */
export async function answerOnce(
  ctx: RequestContext,
  message: Message,
  hash: string,
  answer: () => Promise<{ bundle: Bundle; transactionId: string | null }>,
): Promise<string> {
  const { bundle, transactionId } = await answer();
  const response = JSON.stringify(bundle);
  try {
    await recordAnswer(ctx.db, ctx, message, hash, transactionId, response);
  } catch (error) {
    if (pgErrorOf(error)?.code !== UNIQUE_VIOLATION) throw error;
    return (await answeredBefore(ctx, message.header.id, hash)) ?? response;
  }
  return response;
}
