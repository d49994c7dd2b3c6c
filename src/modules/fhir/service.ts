import type { Bundle } from "@medplum/fhirtypes";
import type { RequestContext } from "../../platform/context.js";
import { AppError } from "../../platform/http/errors.js";
import type { ClaimEvent } from "../../reference/nphies-fhir.js";
import type { FhirOrigin } from "../prior-auth/fhir/origin.js";
import { claimResponseBundleOf } from "../prior-auth/fhir/response.js";
import { priorAuthRepo } from "../prior-auth/repo.js";
import { adjudicateNewRequest } from "../prior-auth/service.js";
import { type Message, readMessage } from "./bundle.js";
import { type ClaimPaths, claimRequestOf, contentHash } from "./claim-request.js";
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

/** the same Claim sent again in another message: its request as it now stands, answering this message */
async function answerResent(ctx: RequestContext, origin: FhirOrigin, path: string): Promise<Bundle> {
  const pa = await priorAuthRepo.find(ctx.db, ctx.tenantId, origin.claim_identifier.value);
  if (pa?.fhir?.claim_hash !== origin.claim_hash)
    throw new AppError("E_EPA_069", `Claim identifier ${origin.claim_identifier.value} is already used`, [
      `${path}: ${origin.claim_identifier.value} is already used by another request (with other content)`,
    ]);
  const items = await priorAuthRepo.listItems(ctx.db, pa.id);
  return claimResponseBundleOf(pa, { ...pa.fhir, message_id: origin.message_id }, items, ctx.now());
}

/** a priorauth-request or claim-request: adjudicated as a prior authorization like any other */
async function answerClaim(ctx: RequestContext, message: Message, event: ClaimEvent) {
  const { input, origin, paths } = claimRequestOf(message, event);
  try {
    const { pa, items } = await adjudicateNewRequest(ctx, input, origin);
    return {
      response: claimResponseBundleOf(pa, origin, items, ctx.now()),
      transactionId: pa.transaction_id,
    };
  } catch (error) {
    if (error instanceof AppError && error.code === "E_EPA_069")
      return {
        response: await answerResent(ctx, origin, paths.identifier),
        transactionId: input.transaction_id,
      };
    throw atPath(error, paths);
  }
}

/**
 * `$process-message`: a NPHIES request message answered with its response message. A message resent with
 * the same MessageHeader id is answered as the first time; the same id with other content is refused.
 */
export async function processMessage(ctx: RequestContext, body: unknown): Promise<{ resourceType: string }> {
  const message = readMessage(body);
  const hash = contentHash(body);
  const earlier = await fhirMessageRepo.find(ctx.db, ctx.tenantId, message.header.id);
  if (earlier !== undefined) {
    if (earlier.content_hash === hash) return earlier.response;
    throw new AppError("E_EPA_069", `MessageHeader ${message.header.id} was already processed`, [
      `Bundle.entry[0].resource.id: ${message.header.id} was already processed with other content`,
    ]);
  }
  const { response, transactionId } =
    message.event === "eligibility-request"
      ? { response: await answerEligibility(ctx, message), transactionId: null }
      : await answerClaim(ctx, message, message.event);
  await fhirMessageRepo.record(
    ctx.db,
    ctx.tenantId,
    { messageId: message.header.id, event: message.event, contentHash: hash, transactionId },
    response,
  );
  return response;
}
