import { createHash } from "node:crypto";
import type {
  Bundle,
  ClaimResponse,
  ClaimResponseItem,
  ClaimResponseItemAdjudication,
  Extension,
} from "@medplum/fhirtypes";
import { halalasOf } from "../../engine/money.js";
import {
  ADJUDICATION_OUTCOME,
  ADJUDICATION_REASON,
  ADJUDICATION_REASON_V2,
  ADJUDICATION_REASON_V2_DISPLAY,
  type AdjudicationError,
  CS,
  ENGINE_REASON,
  EXTENSION,
  HL7,
  PAYER_LICENSE,
  PROVIDER_LICENSE,
  profile,
  RESPONSE_EVENT,
} from "../../reference/nphies-fhir.js";
import type { ItemRow, PriorAuthRow } from "../prior-auth/repo.js";
import { reasonsOf } from "../prior-auth/service.js";
import { concept, moneyOf, responseMessageOf } from "./message.js";
import type { FhirOrigin, OriginItem, ReceivedEntry } from "./origin.js";

/** how long a prior authorization is valid when the reviewer set no referral validity */
export const PREAUTH_VALID_DAYS = 30;
const DAY = 86_400_000;

type Outcome = "approved" | "partial" | "rejected" | "pended";

function itemOutcome(row: ItemRow): Outcome {
  if (row.outcome === "PENDING_REVIEW") return "pended";
  if (row.outcome === "PARTIALLY_APPROVED") return "partial";
  return row.approved ? "approved" : "rejected";
}

/** what a complete response decides, item by item, as a short hash: the same decision sent twice is not news */
export const decisionHashOf = (rows: readonly ItemRow[]): string =>
  createHash("sha256")
    .update(
      JSON.stringify(
        rows.map((row) => [
          row.item_index,
          row.outcome,
          row.approved_quantity,
          row.approved_amount,
          row.reviewer_status,
        ]),
      ),
    )
    .digest("hex")
    .slice(0, 32);

/** the request's outcome from its items': one pended item pends the whole */
export function requestOutcome(rows: readonly ItemRow[]): Outcome {
  const outcomes = rows.map(itemOutcome);
  if (outcomes.includes("pended")) return "pended";
  if (outcomes.every((outcome) => outcome === "approved")) return "approved";
  if (outcomes.every((outcome) => outcome === "rejected")) return "rejected";
  return "partial";
}

/**
 * An item's amounts in halalas, as the pack's responses count them: submitted is the net sent (with its
 * tax); the patient's share shrinks with the eligible amount; the payer pays the rest of the eligible
 * amount with the tax on it (benefit), the patient its share with the tax on that (patientShare).
 */
function itemAmounts(row: ItemRow, sent: OriginItem | undefined) {
  const base = halalasOf(row.request_amount);
  const tax = Math.round((sent?.tax ?? 0) * 100);
  const eligible = halalasOf(row.approved_amount);
  const rate = base === 0 ? 0 : tax / base;
  const copay =
    base === 0 ? 0 : Math.min(eligible, Math.round((sent?.patient_share ?? 0) * 100 * (eligible / base)));
  const payerTax = Math.round((eligible - copay) * rate);
  return {
    submitted: sent?.net === undefined ? base + tax : Math.round(sent.net * 100),
    eligible,
    copay,
    tax: payerTax,
    benefit: eligible - copay + payerTax,
    patientShare: copay + Math.round(copay * rate),
  };
}

type Amounts = ReturnType<typeof itemAmounts>;
const HL7_CATEGORIES = ["submitted", "eligible", "copay", "benefit", "tax"] as const;

/** a reason as NPHIES codes it: the v2.6 adjudication-reason list, else the engine's own (held items) */
function reasonConcept(reason: { code: string; nphiesCode: string | null; message: string }) {
  if (reason.nphiesCode === null) return { ...concept(ENGINE_REASON, reason.code), text: reason.message };
  const code = ADJUDICATION_REASON_V2[reason.nphiesCode] ?? reason.nphiesCode;
  return {
    ...concept(ADJUDICATION_REASON, code, ADJUDICATION_REASON_V2_DISPLAY[code]),
    text: reason.message,
  };
}

function adjudicationOf(row: ItemRow, amounts: Amounts): ClaimResponseItemAdjudication[] {
  const adjudication: ClaimResponseItemAdjudication[] = HL7_CATEGORIES.map((category) => ({
    category: concept(`${HL7}adjudication`, category),
    amount: moneyOf(amounts[category]),
  }));
  adjudication.push(
    { category: concept(`${CS}ksa-adjudication`, "patientShare"), amount: moneyOf(amounts.patientShare) },
    { category: concept(`${CS}ksa-adjudication`, "approved-quantity"), value: row.approved_quantity },
  );
  const refused = halalasOf(row.request_amount) - amounts.eligible;
  for (const reason of reasonsOf(row))
    adjudication.push({
      category: concept(`${CS}ksa-adjudication`, "rejected"),
      reason: reasonConcept(reason),
      amount: moneyOf(Math.max(0, refused)),
    });
  return adjudication;
}

/** a package's components, each adjudicated in the proportion its item was */
function detailsOf(row: ItemRow, sent: OriginItem | undefined, amounts: Amounts) {
  if (sent?.details === undefined) return {};
  const share = amounts.submitted === 0 ? 0 : amounts.benefit / amounts.submitted;
  return {
    detail: sent.details.map((detail) => ({
      detailSequence: detail.sequence,
      adjudication: [
        {
          category: concept(`${HL7}adjudication`, "submitted"),
          amount: moneyOf(Math.round(detail.net * 100)),
        },
        {
          category: concept(`${HL7}adjudication`, "benefit"),
          amount: moneyOf(Math.round(detail.net * 100 * share)),
        },
        { category: concept(`${CS}ksa-adjudication`, "approved-quantity"), value: row.approved_quantity },
      ],
    })),
  };
}

function itemOf(row: ItemRow, origin: FhirOrigin, amounts: Amounts): ClaimResponseItem {
  const sent = origin.items[row.item_index];
  return {
    itemSequence: sent?.sequence ?? row.item_index + 1,
    extension: [
      {
        url: EXTENSION.adjudicationOutcome,
        valueCodeableConcept: concept(ADJUDICATION_OUTCOME, itemOutcome(row)),
      },
      ...(sent?.patient_invoice === undefined
        ? []
        : [{ url: EXTENSION.patientInvoice, valueIdentifier: sent.patient_invoice }]),
    ],
    adjudication: adjudicationOf(row, amounts),
    ...detailsOf(row, sent, amounts),
  };
}

const DISPOSITION: Record<Outcome, string> = {
  approved: "Approved",
  partial: "Partially approved",
  rejected: "Rejected",
  pended: "Pended: held for a reviewer; the final response follows",
};

/** how a response answers: the first, a later one (a reissue when a complete one went before), queued */
export interface Answering {
  /** 1 for the answer to the request itself */
  number: number;
  /** a complete response went before this one: the reissue's reason (reissue-reason code) */
  reissue?: string;
  /** answered queued whatever the decision (a request that asked for deferred processing) */
  queued?: boolean;
  /** the provider a transfer goes to, as the payer knows it (the reviewer's referral) */
  transferTo?: { licence: string; name: string };
}

/** the sub-type a Claim that named none was adjudicated as: inpatient for institutional, else outpatient */
const inferredSubType = (claimType: string) => (claimType === "institutional" ? "ip" : "op");

/** what every ClaimResponse of a request says of the request itself */
function claimResponseBase(origin: FhirOrigin, id: string, number: number, at: Date) {
  const preauth = origin.event === "priorauth-request";
  const payer = origin.payer_license ?? "";
  return {
    resourceType: "ClaimResponse" as const,
    id,
    meta: { profile: [profile(preauth ? "prior-auth-response" : "claim-response")] },
    identifier: [
      {
        system: `${PAYER_LICENSE}/${payer}/${preauth ? "authorizationresponse" : "claimresponse"}`,
        value: `${origin.claim_identifier.value}-${number}`,
      },
    ],
    type: concept(`${HL7}claim-type`, origin.claim_type),
    // the Claim's sub-type, or the one it was adjudicated as (a ClaimResponse carries one since IG 5.2)
    subType: concept(`${CS}claim-subtype`, origin.claim_sub_type ?? inferredSubType(origin.claim_type)),
    use: preauth ? ("preauthorization" as const) : ("claim" as const),
    patient: { reference: origin.patient.fullUrl },
    created: at.toISOString(),
    insurer:
      origin.insurer === null
        ? { identifier: { system: PAYER_LICENSE, value: payer } }
        : { reference: origin.insurer.fullUrl },
    requestor: { reference: origin.provider.fullUrl },
    request: {
      type: "Claim" as const,
      identifier: {
        ...(origin.claim_identifier.system === null ? {} : { system: origin.claim_identifier.system }),
        value: origin.claim_identifier.value,
      },
    },
    ...(origin.coverage === null
      ? {}
      : { insurance: [{ sequence: 1, focal: true, coverage: { reference: origin.coverage.fullUrl } }] }),
  };
}

/** the response message around a ClaimResponse, with the resources it references */
function bundleOf(
  origin: FhirOrigin,
  claimResponse: ClaimResponse,
  at: Date,
  extra: readonly ReceivedEntry[] = [],
): Bundle {
  return responseMessageOf(
    {
      event: RESPONSE_EVENT[origin.event],
      requestMessageId: origin.message_id,
      providerLicense: origin.provider_license,
      payerLicense: origin.payer_license ?? "",
      at,
    },
    claimResponse,
    [
      origin.patient,
      ...(origin.coverage === null ? [] : [origin.coverage]),
      origin.provider,
      ...(origin.insurer === null ? [] : [origin.insurer]),
      ...(origin.related ?? []),
      ...extra,
    ],
  );
}

/**
 * An approved transfer of care names the receiving provider (IG 7.3, BV-00546/547/562): the one the
 * reviewer referred to (an Organization by its licence), else the requesting provider; the transfer's
 * number and period are the authorization's.
 */
function transferOf(
  pa: PriorAuthRow,
  origin: FhirOrigin,
  period: { start: string; end: string },
  to: Answering["transferTo"],
) {
  const referred: ReceivedEntry | undefined =
    to === undefined
      ? undefined
      : {
          fullUrl: `urn:uuid:transfer-${pa.id}`,
          resource: {
            resourceType: "Organization",
            id: `transfer-${pa.id}`,
            meta: { profile: [profile("provider-organization")] },
            identifier: [{ system: PROVIDER_LICENSE, value: to.licence }],
            name: to.name,
          },
        };
  const extension: Extension[] = [
    { url: EXTENSION.transferAuthorizationNumber, valueString: `${pa.authorization_number}-T` },
    { url: EXTENSION.transferAuthorizationPeriod, valuePeriod: period },
    {
      url: EXTENSION.transferAuthorizationProvider,
      valueReference: { reference: (referred ?? origin.provider).fullUrl },
    },
  ];
  return { extension, entries: referred === undefined ? [] : [referred] };
}

/**
 * The response message to a priorauth-request or claim-request, as the request now stands: the first
 * answer (the engine's decisions, or queued), and after a reviewer's decision or a re-adjudication the
 * final one, numbered, a reissue when a complete one went before. README "NPHIES FHIR interface".
 */
export function claimResponseBundleOf(
  pa: PriorAuthRow,
  origin: FhirOrigin,
  rows: readonly ItemRow[],
  at: Date,
  answering: Answering = { number: 1 },
): Bundle {
  const decided = requestOutcome(rows);
  const outcome = answering.queued ? "pended" : decided;
  const preauth = origin.event === "priorauth-request";
  const amounts = rows.map((row) => itemAmounts(row, origin.items[row.item_index]));
  const total = (category: keyof Amounts) => amounts.reduce((sum, item) => sum + item[category], 0);
  const start = new Date(
    Date.UTC(
      pa.treatment_date.getUTCFullYear(),
      pa.treatment_date.getUTCMonth(),
      pa.treatment_date.getUTCDate(),
    ),
  );
  const validDays = pa.referral_valid_days ?? PREAUTH_VALID_DAYS;
  const period = {
    start: start.toISOString().slice(0, 10),
    end: new Date(start.getTime() + validDays * DAY).toISOString().slice(0, 10),
  };
  const queued = outcome === "pended";
  const transfer =
    origin.transfer === true && !queued && (outcome === "approved" || outcome === "partial")
      ? transferOf(pa, origin, period, answering.transferTo)
      : { extension: [], entries: [] };
  const extension: Extension[] = [
    { url: EXTENSION.adjudicationOutcome, valueCodeableConcept: concept(ADJUDICATION_OUTCOME, outcome) },
    ...(answering.reissue === undefined
      ? []
      : [
          { url: EXTENSION.reissue, valueCodeableConcept: concept(`${CS}reissue-reason`, answering.reissue) },
        ]),
    ...transfer.extension,
  ];
  const claimResponse: ClaimResponse = {
    ...claimResponseBase(origin, `${pa.id}-${answering.number}`, answering.number, at),
    extension,
    status: pa.status === "CANCELLED" ? "cancelled" : "active",
    outcome: queued ? "queued" : "complete",
    disposition: answering.queued
      ? "Queued: the request is adjudicated after this answer; the final response follows"
      : pa.note === null
        ? DISPOSITION[outcome]
        : `${DISPOSITION[outcome]}. ${pa.note}`.slice(0, 1000),
    // a complete answer to a prior authorization carries its reference, rejected or not (BV-00386)
    ...(preauth && !queued ? { preAuthRef: pa.authorization_number, preAuthPeriod: period } : {}),
    // a deferred request is not adjudicated yet as far as this answer says (what was submitted, BV-00023);
    // a held one shows its items
    ...(answering.queued
      ? {
          total: [
            { category: concept(`${HL7}adjudication`, "submitted"), amount: moneyOf(total("submitted")) },
          ],
        }
      : {
          item: rows.map((row, index) => itemOf(row, origin, amounts[index] as Amounts)),
          total: HL7_CATEGORIES.map((category) => ({
            category: concept(`${HL7}adjudication`, category),
            amount: moneyOf(total(category)),
          })),
        }),
  };
  return bundleOf(origin, claimResponse, at, transfer.entries);
}

/**
 * The answer to a request the payer cannot adjudicate (an unknown member or provider): a ClaimResponse
 * with outcome error and its adjudication-error code, as the guide prescribes (section 6.3.2), nothing
 * stored as a prior authorization.
 */
export function claimErrorBundleOf(
  origin: FhirOrigin,
  error: AdjudicationError,
  disposition: string,
  at: Date,
): Bundle {
  const claimResponse: ClaimResponse = {
    ...claimResponseBase(
      origin,
      `error-${origin.message_id}`.replace(/[^A-Za-z0-9.-]/g, "-").slice(0, 64),
      1,
      at,
    ),
    status: "active",
    outcome: "error",
    disposition: disposition.slice(0, 1000),
    error: [{ code: concept(`${CS}adjudication-error`, error.code, error.display) }],
  };
  return bundleOf(origin, claimResponse, at);
}
