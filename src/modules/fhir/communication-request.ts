import { randomUUID } from "node:crypto";
import type {
  Bundle,
  CommunicationRequest,
  CommunicationRequestPayload,
  Organization,
} from "@medplum/fhirtypes";
import { emitEvent, FHIR_MESSAGE_EVENT } from "../../platform/events/outbox.js";
import { type Reaction, reactTo } from "../../platform/events/reactions.js";
import { CS, EXTENSION, HL7, PAYER_LICENSE, profile } from "../../reference/nphies-fhir.js";
import {
  PRIOR_AUTH_INFORMATION_REQUESTED,
  type PriorAuthInformationRequested,
} from "../prior-auth/events.js";
import { concept, payerMessageOf } from "./message.js";
import type { FhirOrigin, ReceivedEntry } from "./origin.js";
import { fhirRequestRepo } from "./repo.js";

/** the insurer as the request named it; a request without one: an Organization with the payer licence */
function insurerOf(origin: FhirOrigin, payer: string): ReceivedEntry {
  if (origin.insurer !== null) return origin.insurer;
  const id = randomUUID();
  const insurer: Organization = {
    resourceType: "Organization",
    id,
    meta: { profile: [profile("insurer-organization")] },
    identifier: [{ system: PAYER_LICENSE, value: payer }],
    active: true,
    type: [concept(`${CS}organization-type`, "ins")],
  };
  return { fullUrl: `urn:uuid:${id}`, resource: { ...insurer } };
}

/**
 * The communication-request message (NPHIES sample 18a) asking the provider of a request that came as a
 * NPHIES message for information: the payer sends it unprompted, so its MessageHeader answers nothing (no
 * `response`). The CommunicationRequest is about the Claim, its payload the reviewer's text and one entry
 * per item asked about, carrying the item's sequence; its subject, recipient and sender are entries of the
 * bundle (the patient, provider and insurer as the request sent them).
 */
export function communicationRequestBundleOf(
  origin: FhirOrigin,
  asked: PriorAuthInformationRequested,
  at: Date,
): Bundle {
  const payer = origin.payer_license ?? "";
  const insurer = insurerOf(origin, payer);
  const focusId = randomUUID();
  const itemPayloads = asked.itemIndexes.flatMap((index): CommunicationRequestPayload[] => {
    const sequence = origin.items[index]?.sequence;
    if (sequence === undefined) return [];
    return [
      {
        extension: [{ url: EXTENSION.itemSequence, valuePositiveInt: sequence }],
        contentString: `Information requested about item ${sequence}`,
      },
    ];
  });
  const focus: CommunicationRequest = {
    resourceType: "CommunicationRequest",
    id: focusId,
    meta: { profile: [profile("communication-request")] },
    identifier: [
      {
        system: `${PAYER_LICENSE}/${payer}/communicationrequest`,
        value: `${asked.transactionId}-cr-${asked.informationRequestId}`,
      },
    ],
    status: "active",
    category: [concept(`${HL7}communication-category`, "instruction")],
    priority: "routine",
    subject: { reference: origin.patient.fullUrl },
    about: [
      {
        type: "Claim",
        identifier: {
          ...(origin.claim_identifier.system === null ? {} : { system: origin.claim_identifier.system }),
          value: origin.claim_identifier.value,
        },
      },
    ],
    authoredOn: asked.createdAt,
    payload: [{ contentString: asked.content }, ...itemPayloads],
    recipient: [{ reference: origin.provider.fullUrl }],
    sender: { reference: insurer.fullUrl },
  };
  // the payer writes first: no request is answered
  return payerMessageOf(
    { event: "communication-request", providerLicense: origin.provider_license, payerLicense: payer, at },
    [focus],
    [origin.patient, origin.provider, insurer],
  );
}

/**
 * A reviewer asked for information about a request: when the request came as a NPHIES message, the
 * communication-request goes to the tenant's NPHIES endpoint (in the asking transaction); otherwise nothing.
 */
export const sendCommunicationRequest: Reaction<PriorAuthInformationRequested> = async (
  tx,
  jobs,
  actor,
  asked,
) => {
  const known = await fhirRequestRepo.findByPriorAuthId(tx, asked.priorAuthId);
  if (known === undefined) return;
  await emitEvent(tx, jobs, actor.tenantId, {
    hookType: "NPHIES",
    eventType: FHIR_MESSAGE_EVENT,
    data: communicationRequestBundleOf(known.origin, asked, new Date()),
    subject: `prior-auth:${asked.transactionId}`,
    requestId: actor.requestId,
  });
};

/** subscribes the FHIR area to reviewers' requests for information (called where the app is assembled) */
export function registerCommunicationRequests(): void {
  reactTo(PRIOR_AUTH_INFORMATION_REQUESTED, "fhir.communication-request", sendCommunicationRequest);
}
