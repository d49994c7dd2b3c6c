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
 * What is kept of a request that came as a NPHIES message (fhir_requests.origin), so that every
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
  /** the Coverage the request named; null when it named none (the member found by the patient) */
  coverage: ReceivedEntry | null;
  provider: ReceivedEntry;
  insurer: ReceivedEntry | null;
  /** by item index: the item's sequence and what was sent beside its unit price */
  items: OriginItem[];
  /** Claim.priority deferred: the first answer was queued, the decision sent after it */
  deferred?: boolean;
  /** a transfer of care (extension-transfer): held for a reviewer, who names the receiving provider */
  transfer?: boolean;
  /** a resubmission or follow-up of an earlier request (Claim.related, relationship prior): held for a
   * reviewer, who looks again at what was decided before */
  resubmission?: boolean;
  /** other resources the echoed ones reference (a subscriber, a mother, a policy holder), echoed too */
  related?: ReceivedEntry[];
}

/** an item's sequence and amounts as sent (riyals), and a package's components */
export interface OriginItem {
  sequence: number;
  tax: number;
  patient_share: number;
  /** item.net as sent (quantity x unit price x factor + tax) */
  net?: number;
  details?: { sequence: number; net: number }[];
  /** extension-patientInvoice as sent: a claim response echoes it */
  patient_invoice?: { system?: string | undefined; value?: string | undefined };
}
