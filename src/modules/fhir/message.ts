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
export const entryOf = (received: ReceivedEntry): BundleEntry => ({
  fullUrl: received.fullUrl,
  resource: received.resource as unknown as Resource,
});

/**
 * A response message: its MessageHeader (the response event, the parties swapped: the payer sends to the
 * provider, `response.identifier` = the request's MessageHeader id) focused on `focus`, then the resources
 * the focus references.
 */
export function responseMessageOf(
  answer: {
    event: string;
    requestMessageId: string;
    providerLicense: string;
    payerLicense: string;
    at: Date;
  },
  focus: Resource,
  referenced: readonly ReceivedEntry[],
): Bundle {
  const focusUrl = `urn:uuid:${randomUUID()}`;
  const header: MessageHeader = {
    resourceType: "MessageHeader",
    id: randomUUID(),
    meta: { profile: [profile("message-header")] },
    eventCoding: { system: MESSAGE_EVENTS, code: answer.event },
    destination: [
      {
        endpoint: `${PROVIDER_LICENSE}/${answer.providerLicense}`,
        receiver: {
          type: "Organization",
          identifier: { system: PROVIDER_LICENSE, value: answer.providerLicense },
        },
      },
    ],
    sender: { type: "Organization", identifier: { system: PAYER_LICENSE, value: answer.payerLicense } },
    source: { endpoint: `${PAYER_LICENSE}/${answer.payerLicense}` },
    response: { identifier: answer.requestMessageId, code: "ok" },
    focus: [{ reference: focusUrl }],
  };
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    meta: { profile: [profile("bundle")] },
    type: "message",
    timestamp: answer.at.toISOString(),
    entry: [
      { fullUrl: `urn:uuid:${header.id}`, resource: header },
      { fullUrl: focusUrl, resource: focus },
      ...referenced.map(entryOf),
    ],
  };
}
