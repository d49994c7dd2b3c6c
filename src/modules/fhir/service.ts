import type { RequestContext } from "../../platform/context.js";
import type { RequestEvent } from "../../reference/nphies-fhir.js";
import { answeredBefore, answerOnce } from "./answers.js";
import { answerBatch } from "./batch.js";
import { type Message, readMessage } from "./bundle.js";
import { answerClaimMessage } from "./claim-answer.js";
import { answerCommunication } from "./communication.js";
import { answerEligibility } from "./eligibility.js";
import { acknowledgementOf, answerCancel, answerStatusCheck } from "./tasks.js";

/** how each event a payer receives is answered: the response message's JSON text, as recorded and sent */
type Handler = (ctx: RequestContext, message: Message, hash: string) => Promise<string>;

const HANDLERS: Record<RequestEvent, Handler> = {
  "priorauth-request": answerClaimMessage,
  "claim-request": answerClaimMessage,
  "eligibility-request": (ctx, message, hash) =>
    answerOnce(ctx, message, hash, async () => ({
      bundle: await answerEligibility(ctx, message),
      transactionId: null,
    })),
  "cancel-request": answerCancel,
  "status-check": answerStatusCheck,
  communication: answerCommunication,
  "batch-request": (ctx, message, hash) => answerBatch(ctx, message, hash, answerMessage),
  "error-notice": (ctx, message, hash) =>
    answerOnce(ctx, message, hash, async () => ({
      bundle: acknowledgementOf(ctx, message),
      transactionId: null,
    })),
};

/**
 * `$process-message`: a message NPHIES delivers to a payer (and the hash of its bytes) answered with its
 * response message. A message resent with the same MessageHeader id is answered as the first time; the
 * same id with other content is refused.
 */
export async function processMessage(ctx: RequestContext, body: unknown, hash: string): Promise<string> {
  return answerMessage(ctx, readMessage(body), hash);
}

/** a message read already (a batch's inner messages are read with the batch) answered, once */
async function answerMessage(ctx: RequestContext, message: Message, hash: string): Promise<string> {
  const earlier = await answeredBefore(ctx, message.header.id, hash);
  if (earlier !== undefined) return earlier;
  return HANDLERS[message.event](ctx, message, hash);
}
