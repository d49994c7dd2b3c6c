import type { RequestContext } from "../../platform/context.js";
import { PAYER_LICENSE, PROVIDER_LICENSE } from "../../reference/nphies-fhir.js";
import { type PriorAuthRow, priorAuthRepo } from "../prior-auth/repo.js";
import type { Message } from "./bundle.js";
import { type FhirRequestRow, fhirRequestRepo } from "./repo.js";

/**
 * What a cancel-request, status-check or communication is about: an earlier priorauth-request or
 * claim-request, named by its Claim identifier (whose value is the transaction_id), of the provider that
 * sends the message.
 */

/** the provider that sent a message and the payer it was addressed to, by licence (`""` when not named) */
export interface Parties {
  provider: string;
  payer: string;
}

export function partiesOf(message: Message): Parties {
  const { sender, destination } = message.header;
  const receiver = destination?.find((entry) => entry.receiver?.identifier?.system === PAYER_LICENSE);
  return {
    provider: sender?.identifier?.system === PROVIDER_LICENSE ? (sender.identifier.value ?? "") : "",
    payer: receiver?.receiver?.identifier?.value ?? "",
  };
}

/** the request found, and what the FHIR area keeps of it when it came as a message */
export type Target =
  | { found: true; pa: PriorAuthRow; received: FhirRequestRow | undefined }
  | { found: false };

/**
 * The prior authorization a Claim identifier names for this provider: another provider's request, or a
 * request that came as a message under another identifier system, is not the one named.
 */
export async function findTarget(
  ctx: RequestContext,
  claim: { system?: string | undefined; value: string },
  providerLicense: string,
): Promise<Target> {
  const [pa, received] = await Promise.all([
    priorAuthRepo.find(ctx.db, ctx.tenantId, claim.value),
    fhirRequestRepo.findByTransactionId(ctx.db, ctx.tenantId, claim.value),
  ]);
  if (pa === undefined) return { found: false };
  if (providerLicense !== "" && pa.provider_cchi_no !== providerLicense) return { found: false };
  const system = received?.origin.claim_identifier.system;
  if (claim.system !== undefined && system !== undefined && system !== null && system !== claim.system)
    return { found: false };
  return { found: true, pa, received };
}
