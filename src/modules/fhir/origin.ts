/** a resource as the message carried it (checked on receipt), kept to be referenced by responses */
export interface ReceivedResource {
  resourceType: string;
  id?: string | undefined;
  [element: string]: unknown;
}

export interface ReceivedEntry {
  fullUrl: string;
  resource: ReceivedResource;
}

/**
 * What is kept of a request that came as a NPHIES message (prior_authorizations.fhir), so that every
 * response bundle about it, the first and the reviewer's final one, answers that message: its ids, the
 * parties, the resources a response references, and the item amounts the engine itself does not read.
 */
export interface FhirOrigin {
  event: "priorauth-request" | "claim-request";
  bundle_id: string | null;
  message_id: string;
  /** the Claim resource's id and its identifier (whose value is the transaction_id) */
  claim_id: string | null;
  claim_identifier: { system: string | null; value: string };
  /** sha-256 of the Claim as sent: a resent Claim identifier with other content is refused */
  claim_hash: string;
  /** the sender's provider licence and the payer licence it was addressed to */
  provider_license: string;
  payer_license: string | null;
  /** Claim.type and Claim.subType codes as sent, echoed by the response */
  claim_type: string;
  claim_sub_type: string | null;
  patient: ReceivedEntry;
  coverage: ReceivedEntry;
  provider: ReceivedEntry;
  insurer: ReceivedEntry | null;
  /** by item index: the item's sequence and the amounts sent beside its unit price (riyals) */
  items: { sequence: number; tax: number; patient_share: number }[];
}
