import { createHash } from "node:crypto";
import type { Bundle } from "@medplum/fhirtypes";
import type { RequestContext } from "../../platform/context.js";
import { AppError } from "../../platform/http/errors.js";
import { answerOnce } from "./answers.js";
import { type Message, readMessage } from "./bundle.js";
import { payerMessageOf } from "./message.js";
import { partiesOf } from "./target.js";

const CLAIM_EVENTS = new Set(["claim-request", "priorauth-request"]);

/** the inner messages of a batch, each checked as a message of its own; a problem names its place */
function innerMessagesOf(message: Message) {
  const { problems } = message;
  const inner = message.header.focus.flatMap((focus, index) => {
    const path = `Bundle.entry[0].resource.focus[${index}]`;
    const at = focus.reference === undefined ? -1 : message.indexOf(focus.reference);
    const entry = message.bundle.entry[at];
    if (entry?.resource.resourceType !== "Bundle") {
      problems.add(`${path}.reference`, "must name a claim-request message Bundle of this batch");
      return [];
    }
    try {
      const read = readMessage(entry.resource);
      if (!CLAIM_EVENTS.has(read.event))
        problems.add(`Bundle.entry[${at}].resource`, `a batch carries claim requests, not ${read.event}`);
      return [read];
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // the inner message's problems, named from the batch's own Bundle
      for (const detail of error.details)
        problems.add(
          `Bundle.entry[${at}].resource${detail.slice("Bundle".length).split(": ")[0]}`,
          detail.split(": ").slice(1).join(": "),
        );
      return [];
    }
  });
  problems.throwIfAny();
  return inner;
}

/**
 * A batch-request: several claims in one message (IG 7.4), answered claim by claim. Each inner message is
 * processed as if sent alone (its own MessageHeader id, resends answered the same); the batch-response
 * carries each claim's response message, in the batch's order.
 */
export async function answerBatch(
  ctx: RequestContext,
  message: Message,
  hash: string,
  process: (ctx: RequestContext, message: Message, hash: string) => Promise<string>,
): Promise<string> {
  const inner = innerMessagesOf(message);
  return answerOnce(ctx, message, hash, async () => {
    const responses: Bundle[] = [];
    for (const read of inner) {
      const innerHash = createHash("sha256").update(JSON.stringify(read.bundle)).digest("hex");
      responses.push(JSON.parse(await process(ctx, read, innerHash)));
    }
    const parties = partiesOf(message);
    const bundle = payerMessageOf(
      {
        event: "batch-response",
        providerLicense: parties.provider,
        payerLicense: parties.payer,
        at: ctx.now(),
        requestMessageId: message.header.id,
      },
      responses,
      [],
    );
    return { bundle, transactionId: null };
  });
}
