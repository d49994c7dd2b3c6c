import { randomUUID } from "node:crypto";
import type { Bundle, Task, TaskOutput } from "@medplum/fhirtypes";
import type { RequestContext } from "../../platform/context.js";
import { AppError } from "../../platform/http/errors.js";
import { CS, PAYER_LICENSE, profile, RESPONSE_EVENT } from "../../reference/nphies-fhir.js";
import { priorAuthRepo } from "../prior-auth/repo.js";
import { cancelPriorAuth } from "../prior-auth/service.js";
import { acknowledgementMessageOf, type RuleBroken } from "./acknowledgement.js";
import { answerOnce } from "./answers.js";
import type { Message } from "./bundle.js";
import { concept, responseMessageOf } from "./message.js";
import { findTarget, partiesOf, type Target } from "./target.js";
import { codeIn } from "./values.js";

/**
 * cancel-request and status-check (IG 6.2.9): a Task whose focus.identifier is the Claim identifier of an
 * earlier priorauth-request or claim-request, answered with the Task back (samples 17b, 9c).
 */

const TASK_CODE = `${CS}task-code`;
const TASK_OUTPUT = `${CS}task-output-type`;
type TaskCode = "cancel" | "nullify" | "status";

/** what a Task asks, read from the message; refuses (400) a Task without a code or a Claim to act on */
function readTask(message: Message, codes: readonly TaskCode[]) {
  const { problems } = message;
  const task = message.resolve(message.header.focus[0], "Bundle.entry[0].resource.focus[0]", "Task");
  problems.throwIfAny();
  if (task === undefined) throw new Error("unreachable: an unresolved focus is a problem");
  const code = codes.find((known) => known === codeIn(task.resource.code, TASK_CODE)?.code);
  if (code === undefined)
    problems.add(`${task.path}.code`, `must hold a coding of ${TASK_CODE}: ${codes.join(" or ")}`);
  const value = task.resource.focus?.identifier?.value;
  if (value === undefined)
    problems.add(`${task.path}.focus.identifier.value`, "is required: the identifier of the Claim acted on");
  problems.throwIfAny();
  if (code === undefined || value === undefined) throw new Error("unreachable: both are problems");
  return { task, code, claim: { system: task.resource.focus?.identifier?.system, value } };
}
type TaskRead = ReturnType<typeof readTask>;

/** how the payer answers: done (with its output), or refused with the rule the request breaks */
type Result = { status: "completed"; output?: TaskOutput[] } | { status: "failed"; broken: RuleBroken };

/**
 * The Task back as 17b and 9c show it: the same code, focus, authoredOn and reasonCode (BV-00466), an
 * identifier and lastModified of the payer's, requester and owner resolving to the entries they named.
 * A refusal is `failed` (the IG's Task usage table 59 allows completed or failed) with the reason in
 * statusReason and no output (BV-00242/BV-00256: a payer's failed Task carries none).
 */
function taskAnswerOf(message: Message, read: TaskRead, result: Result, at: Date): Bundle {
  const parties = partiesOf(message);
  const { resource } = read.task;
  const requester = message.find(resource.requester, "Organization");
  const owner = message.find(resource.owner, "Organization");
  // the same Organization may be both
  const referenced = [requester, ...(owner?.index === requester?.index ? [] : [owner])].flatMap((entry) =>
    entry === undefined ? [] : [message.received(entry)],
  );
  const fullUrlOf = (entry: { index: number }) => message.bundle.entry[entry.index]?.fullUrl ?? "";
  const id = randomUUID();
  const task: Task = {
    resourceType: "Task",
    id,
    meta: { profile: [profile("task")] },
    identifier: [{ system: `${PAYER_LICENSE}/${parties.payer}/task`, value: id }],
    status: result.status,
    ...(result.status === "failed"
      ? {
          // task-status-reason has no "unknown": rejected, with the rule NPHIES would cite as the text
          statusReason: {
            ...concept(`${CS}task-status-reason`, "rejected"),
            text: `${result.broken.display} (${result.broken.rule})`,
          },
        }
      : {}),
    intent: "order",
    priority: "routine",
    code: concept(TASK_CODE, read.code),
    focus: {
      type: resource.focus?.type === "ClaimResponse" ? "ClaimResponse" : "Claim",
      identifier: {
        ...(read.claim.system === undefined ? {} : { system: read.claim.system }),
        value: read.claim.value,
      },
    },
    authoredOn: resource.authoredOn ?? at.toISOString(),
    lastModified: at.toISOString(),
    ...(requester === undefined ? {} : { requester: { reference: fullUrlOf(requester) } }),
    ...(owner === undefined ? {} : { owner: { reference: fullUrlOf(owner) } }),
    ...(resource.reasonCode === undefined ? {} : { reasonCode: resource.reasonCode }),
    ...(result.status === "completed" && result.output !== undefined ? { output: result.output } : {}),
  };
  return responseMessageOf(
    {
      event: RESPONSE_EVENT[message.event],
      requestMessageId: message.header.id,
      providerLicense: parties.provider,
      payerLicense: parties.payer,
      at,
    },
    task,
    referenced,
  );
}

const UNKNOWN_TO_CANCEL: RuleBroken = {
  rule: "BV-00222",
  display: "The claim identifier within the Cancel request does not exist",
};
const ALREADY_CANCELLED: RuleBroken = {
  rule: "BV-00445",
  display: "The referenced transaction has already been cancelled",
};
const UNKNOWN_TO_CHECK: RuleBroken = {
  rule: "BV-00459",
  display: "The target message in the status check request could not be found",
};

/** cancels the request the Task names; a request unknown, or cancelled already, is refused in the Task */
async function cancelTarget(ctx: RequestContext, target: Target): Promise<Result> {
  if (!target.found) return { status: "failed", broken: UNKNOWN_TO_CANCEL };
  if (target.pa.status === "CANCELLED") return { status: "failed", broken: ALREADY_CANCELLED };
  try {
    await cancelPriorAuth(ctx.db, ctx.jobs, ctx, target.pa.transaction_id);
    return { status: "completed" };
  } catch (error) {
    // cancelled meanwhile by another message or the JSON API
    if (error instanceof AppError && error.code === "E_EPA_17")
      return { status: "failed", broken: ALREADY_CANCELLED };
    if (error instanceof AppError && error.code === "E_EPA_09")
      return { status: "failed", broken: UNKNOWN_TO_CANCEL };
    throw error;
  }
}

/**
 * cancel-request: the prior authorization (or claim) is cancelled as the JSON API's cancel does, and the
 * Task comes back `completed`; `nullify` cancels alike (IG 6.2.9: the original is kept for audit). An
 * unknown Claim (BV-00222) or one cancelled already (BV-00445, BV-00143) is answered with the Task
 * `failed`, never with a 4xx: the message itself is sound (IG 6.3.2, parsable and sufficient).
 */
export async function answerCancel(ctx: RequestContext, message: Message, hash: string): Promise<string> {
  const read = readTask(message, ["cancel", "nullify"]);
  const target = await findTarget(ctx, read.claim, partiesOf(message).provider);
  const result = await cancelTarget(ctx, target);
  return answerOnce(ctx, message, hash, async () => ({
    bundle: taskAnswerOf(message, read, result, ctx.now()),
    transactionId: target.found ? target.pa.transaction_id : null,
  }));
}

/**
 * The processing status of a request (task-output-type `status`), from the claim-response-outcome value
 * set as 9c sends it: `cancelled`; `queued` while a reviewer has still to decide (or a deferred request's
 * decision is not sent yet), as its ClaimResponse said; otherwise `complete`.
 */
async function statusOf(ctx: RequestContext, target: Target & { found: true }) {
  const { pa, received } = target;
  if (pa.status === "CANCELLED") return "cancelled";
  if (pa.status !== "PENDING") return "complete";
  const items = await priorAuthRepo.listItems(ctx.db, pa.id);
  const held = items.some((item) => item.outcome === "PENDING_REVIEW");
  const deferred = received?.origin.deferred === true && received.complete_sent === 0;
  return held || deferred ? "queued" : "complete";
}

/**
 * status-check: the Task back `completed` with the request's status as output (9c); a Claim this payer
 * does not hold is answered with the Task `failed` (BV-00459), never with a 4xx.
 */
export async function answerStatusCheck(
  ctx: RequestContext,
  message: Message,
  hash: string,
): Promise<string> {
  const read = readTask(message, ["status"]);
  const target = await findTarget(ctx, read.claim, partiesOf(message).provider);
  const result: Result = target.found
    ? {
        status: "completed",
        output: [{ type: concept(TASK_OUTPUT, "status"), valueCode: await statusOf(ctx, target) }],
      }
    : { status: "failed", broken: UNKNOWN_TO_CHECK };
  return answerOnce(ctx, message, hash, async () => ({
    bundle: taskAnswerOf(message, read, result, ctx.now()),
    transactionId: target.found ? target.pa.transaction_id : null,
  }));
}

/**
 * error-notice: NPHIES tells the payer that a response of its had errors (IG 6.3.2.3); the payer confirms
 * receipt with a plain acknowledgement. The errors are logged for the operator: the response they name
 * was the payer's own.
 */
export function acknowledgementOf(ctx: RequestContext, message: Message): Bundle {
  ctx.log.warn(
    { messageId: message.header.id, focus: message.header.focus[0]?.reference },
    "NPHIES reported errors in a response of this payer (error-notice)",
  );
  return acknowledgementMessageOf(message, ctx.now());
}
