import { randomUUID } from "node:crypto";
import type { Bundle, BundleEntry, CodeableConcept, MessageHeader, Resource } from "@medplum/fhirtypes";
import { MESSAGE_EVENTS, PAYER_LICENSE, PROVIDER_LICENSE, profile } from "../../reference/nphies-fhir.js";
import type { ReceivedEntry } from "./origin.js";

export const concept = (system: string, code: string, display?: string): CodeableConcept => ({
  coding: [{ system, code, ...(display === undefined ? {} : { display }) }],
});

/** halalas as FHIR Money: NPHIES amounts are riyals */
export const moneyOf = (halalas: number) => ({ value: halalas / 100, currency: "SAR" as const });

/** a received resource as a response entry: as it was sent (checked on receipt) */
const entryOf = (received: ReceivedEntry): BundleEntry => ({
  fullUrl: received.fullUrl,
  resource: received.resource as unknown as Resource,
});

/** who a payer's message goes to and what it answers: licences, the event, and the request it answers */
export interface PayerMessage {
  event: string;
  providerLicense: string;
  payerLicense: string;
  at: Date;
  /** the MessageHeader id of the request answered; absent when the payer writes first */
  requestMessageId?: string;
  /** the answer's first focus is also `response.details` (an acknowledgement's OperationOutcome) */
  focusIsDetails?: boolean;
}

/**
 * A message from the payer to a provider: its MessageHeader (the payer sends to the provider, by licence;
 * `response.identifier` = the request's MessageHeader id when it answers one) focused on each of `focus`,
 * then the resources the focus references.
 */
export function payerMessageOf(
  message: PayerMessage,
  focus: readonly Resource[],
  referenced: readonly ReceivedEntry[],
): Bundle {
  const focusEntries = focus.map((resource) => ({ fullUrl: `urn:uuid:${randomUUID()}`, resource }));
  const header: MessageHeader = {
    resourceType: "MessageHeader",
    id: randomUUID(),
    meta: { profile: [profile("message-header")] },
    eventCoding: { system: MESSAGE_EVENTS, code: message.event },
    destination: [
      {
        endpoint: `${PROVIDER_LICENSE}/${message.providerLicense}`,
        receiver: {
          type: "Organization",
          identifier: { system: PROVIDER_LICENSE, value: message.providerLicense },
        },
      },
    ],
    sender: { type: "Organization", identifier: { system: PAYER_LICENSE, value: message.payerLicense } },
    source: { endpoint: `${PAYER_LICENSE}/${message.payerLicense}` },
    ...(message.requestMessageId === undefined
      ? {}
      : {
          response: {
            identifier: message.requestMessageId,
            code: "ok" as const,
            ...(message.focusIsDetails && focusEntries[0]
              ? { details: { reference: focusEntries[0].fullUrl } }
              : {}),
          },
        }),
    ...(focusEntries.length === 0
      ? {}
      : { focus: focusEntries.map((entry) => ({ reference: entry.fullUrl })) }),
  };
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    meta: { profile: [profile("bundle")] },
    type: "message",
    timestamp: message.at.toISOString(),
    entry: [
      { fullUrl: `urn:uuid:${header.id}`, resource: header },
      ...focusEntries,
      ...referenced.map(entryOf),
    ],
  };
}

/** the response message to a request: the payer's message answering it, focused on `focus` */
export const responseMessageOf = (
  answer: PayerMessage & { requestMessageId: string },
  focus: Resource,
  referenced: readonly ReceivedEntry[],
): Bundle => payerMessageOf(answer, [focus], referenced);
