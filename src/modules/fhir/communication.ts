import type { RequestContext } from "../../platform/context.js";
import { pgErrorOf } from "../../platform/db/db.js";
import { AppError } from "../../platform/http/errors.js";
import type { CommunicationInput } from "../prior-auth/communications/schemas.js";
import { createCommunication } from "../prior-auth/communications/service.js";
import type { PriorAuthRow } from "../prior-auth/repo.js";
import { acknowledgementMessageOf } from "./acknowledgement.js";
import { answeredBefore, answerOnce, recordAnswer } from "./answers.js";
import { attachmentPath, decodeBase64 } from "./attachments.js";
import type { Entry, Message } from "./bundle.js";
import { fhirAttachmentRepo } from "./repo.js";
import type { FhirCommunication } from "./schemas.js";
import { findTarget, type Parties, partiesOf } from "./target.js";
import { instantOf } from "./values.js";

/**
 * communication (IG 7.4.2.3, 7.5; samples 18b solicited, 18c unsolicited): a provider's text and
 * attachments about a Claim it sent. It becomes a communication of that request (get-one, the console),
 * its attachments stored decoded; answered with an acknowledgement.
 */

/** a payload's claim item (test cases: "Communication.payload.extension.ClaimItemSequence") */
const ITEM_SEQUENCE = /itemsequence$/i;

interface Attachment {
  contentType: string | null;
  title: string | null;
  data: Buffer;
}

/** a payload as kept: its lines of the communication's content, and the attachment it carried */
interface Payload {
  lines: string[];
  attachment: Attachment | undefined;
}

/** a payload read; attachment data that is not base64 is a problem at its FHIRPath (nothing is stored) */
function payloadOf(message: Message, communication: Entry<FhirCommunication>, index: number): Payload {
  const payload = communication.resource.payload?.[index];
  const sequence = payload?.extension?.find((extension) =>
    ITEM_SEQUENCE.test(extension.url),
  )?.valuePositiveInt;
  const item = sequence === undefined ? "" : `[item ${sequence}] `;
  const sent = payload?.contentAttachment;
  const data = sent?.data === undefined ? undefined : decodeBase64(sent.data);
  if (sent?.data !== undefined && data === undefined)
    message.problems.add(
      `${communication.path}.payload[${index}].contentAttachment.data`,
      "must be base64 data (RFC 4648: A-Z, a-z, 0-9, '+', '/', padded with '=')",
    );
  const where =
    data === undefined ? (sent?.url === undefined ? "" : ` at ${sent.url}`) : ` (${data.length} bytes)`;
  const described = sent === undefined ? [] : [`${`${item}Attachment ${sent.title ?? ""}`.trim()}${where}`];
  const lines = [
    ...(payload?.contentString === undefined ? [] : [`${item}${payload.contentString}`]),
    ...described,
  ];
  return {
    lines,
    attachment:
      data === undefined
        ? undefined
        : { contentType: sent?.contentType ?? null, title: sent?.title ?? null, data },
  };
}

/** the Communication of the message: the Claim it is about and its payloads; refuses (400) what is unsound */
function readCommunication(message: Message) {
  const { problems } = message;
  const communication = message.resolve(
    message.header.focus[0],
    "Bundle.entry[0].resource.focus[0]",
    "Communication",
  );
  problems.throwIfAny();
  if (communication === undefined) throw new Error("unreachable: an unresolved focus is a problem");
  const { resource } = communication;
  const aboutIndex = resource.about?.findIndex((about) => about.identifier?.value !== undefined) ?? -1;
  const claim = resource.about?.[aboutIndex]?.identifier;
  if (claim?.value === undefined)
    problems.add(`${communication.path}.about`, "is required: the identifier of the Claim it is about");
  const payloads = (resource.payload ?? []).map((_, index) => payloadOf(message, communication, index));
  problems.throwIfAny();
  if (claim?.value === undefined) throw new Error("unreachable: a missing Claim is a problem");
  return {
    communication,
    claim: { system: claim.system, value: claim.value },
    aboutPath: `${communication.path}.about[${aboutIndex}].identifier`,
    payloads,
    /** the CommunicationRequest it answers (solicited), by its identifier */
    basedOn: resource.basedOn?.find((reference) => reference.identifier?.value)?.identifier?.value,
    sent: resource.sent ?? message.bundle.timestamp,
  };
}
type CommunicationRead = ReturnType<typeof readCommunication>;

/** the communication as the JSON API keeps it; `stored`: the attachments' ids and sizes, in payload order */
function communicationInputOf(
  read: CommunicationRead,
  pa: PriorAuthRow,
  parties: Parties,
  stored: { id: number; bytes: number }[],
  at: Date,
): CommunicationInput {
  const titles = read.payloads.flatMap((payload) => payload.attachment?.title ?? []);
  const identifier = read.communication.resource.identifier?.[0]?.value;
  const lines = read.payloads.flatMap((payload) => payload.lines);
  return {
    transaction_id: pa.transaction_id,
    ...(parties.provider === "" ? {} : { user_name: parties.provider }),
    title: (titles.length > 0 ? titles.join(", ") : `NPHIES communication ${identifier ?? ""}`)
      .trim()
      .slice(0, 255),
    content: [
      ...(read.basedOn === undefined ? [] : [`In reply to communication request ${read.basedOn}`]),
      ...lines,
    ].join("\n"),
    ...(stored.length === 0
      ? {}
      : {
          path: stored.map((attachment) => attachmentPath(attachment.id)).join(", "),
          size: stored.map((attachment) => String(attachment.bytes)).join(", "),
        }),
    date: instantOf(read.sent ?? at.toISOString()),
  };
}

/** BV-00148: the Claim is unknown to this payer, or cancelled (no longer an active message) */
const NOT_ACTIVE = {
  rule: "BV-00148",
  display: "The provided resource identifier in the about element is invalid",
};

/**
 * A communication about a request of this provider: kept with its attachments, the request re-evaluated
 * only while it still waits for a decision (a decided one keeps its decision: the reviewer sees the
 * communication, and may reopen), and acknowledged `ok`; the answer is recorded in the same transaction.
 * About a Claim this payer does not hold, or one cancelled, nothing is kept and the acknowledgement says
 * `fatal-error` with an OperationOutcome (IG 6.3.2: parsable but not to be taken; 200 all the same).
 */
export async function answerCommunication(
  ctx: RequestContext,
  message: Message,
  hash: string,
): Promise<string> {
  const read = readCommunication(message);
  const parties = partiesOf(message);
  const refuse = () =>
    answerOnce(ctx, message, hash, async () => ({
      bundle: acknowledgementMessageOf(message, ctx.now(), { ...NOT_ACTIVE, expression: read.aboutPath }),
      transactionId: null,
    }));
  const target = await findTarget(ctx, read.claim, parties.provider);
  if (!target.found || target.pa.status === "CANCELLED") return refuse();
  const at = ctx.now();
  const response = JSON.stringify(acknowledgementMessageOf(message, at));
  try {
    await createCommunication(ctx.db, ctx.jobs, ctx, { transaction_id: target.pa.transaction_id }, at, {
      reevaluate: "if-pending",
      alongside: async (tx, pa) => {
        await recordAnswer(tx, ctx, message, hash, pa.transaction_id, response);
        const stored: { id: number; bytes: number }[] = [];
        for (const { attachment } of read.payloads)
          if (attachment !== undefined)
            stored.push({
              id: await fhirAttachmentRepo.insert(tx, ctx.tenantId, pa.id, attachment),
              bytes: attachment.data.length,
            });
        return communicationInputOf(read, pa, parties, stored, at);
      },
    });
  } catch (error) {
    // cancelled, or gone, since it was found
    if (error instanceof AppError && (error.code === "E_EPA_15" || error.code === "E_EPA_064"))
      return refuse();
    // the same message answered meanwhile (a concurrent resend): its answer stands
    if (pgErrorOf(error)?.constraint === "fhir_messages_pkey") {
      const earlier = await answeredBefore(ctx, message.header.id, hash);
      if (earlier !== undefined) return earlier;
    }
    throw error;
  }
  return response;
}
