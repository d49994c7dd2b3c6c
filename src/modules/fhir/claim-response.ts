import type {
  Bundle,
  ClaimResponse,
  ClaimResponseItem,
  ClaimResponseItemAdjudication,
} from "@medplum/fhirtypes";
import { halalasOf } from "../../engine/money.js";
import {
  ADJUDICATION_OUTCOME,
  ADJUDICATION_REASON,
  CS,
  ENGINE_REASON,
  EXTENSION,
  HL7,
  PAYER_LICENSE,
  profile,
  RESPONSE_EVENT,
} from "../../reference/nphies-fhir.js";
import { reasonsOf } from "../prior-auth/present.js";
import type { ItemRow, PriorAuthRow } from "../prior-auth/repo.js";
import { concept, moneyOf, responseMessageOf } from "./message.js";
import type { FhirOrigin } from "./origin.js";

/** how long a prior authorization is valid when the reviewer set no referral validity */
export const PREAUTH_VALID_DAYS = 30;
const DAY = 86_400_000;

type Outcome = "approved" | "partial" | "rejected" | "pended";

function itemOutcome(row: ItemRow): Outcome {
  if (row.outcome === "PENDING_REVIEW") return "pended";
  if (row.outcome === "PARTIALLY_APPROVED") return "partial";
  return row.approved ? "approved" : "rejected";
}

/** the request's outcome from its items': one pended item pends the whole */
export function requestOutcome(rows: readonly ItemRow[]): Outcome {
  const outcomes = rows.map(itemOutcome);
  if (outcomes.includes("pended")) return "pended";
  if (outcomes.every((outcome) => outcome === "approved")) return "approved";
  if (outcomes.every((outcome) => outcome === "rejected")) return "rejected";
  return "partial";
}

/** an item's amounts in halalas: what the payer found eligible, with the tax and patient share sent beside
 * it in the same proportion as the approved amount to the requested one */
function itemAmounts(row: ItemRow, sent: FhirOrigin["items"][number] | undefined) {
  const submitted = halalasOf(row.request_amount);
  const eligible = halalasOf(row.approved_amount);
  const share = submitted === 0 ? 0 : eligible / submitted;
  const tax = Math.round((sent?.tax ?? 0) * 100 * share);
  const copay = Math.round((sent?.patient_share ?? 0) * 100 * share);
  return { submitted, eligible, tax, copay, benefit: eligible + tax - copay };
}

type Amounts = ReturnType<typeof itemAmounts>;
const CATEGORIES = ["submitted", "eligible", "benefit", "copay", "tax"] as const;

function itemOf(row: ItemRow, origin: FhirOrigin, amounts: Amounts): ClaimResponseItem {
  const adjudication: ClaimResponseItemAdjudication[] = CATEGORIES.map((category) => ({
    category: concept(`${HL7}adjudication`, category),
    amount: moneyOf(amounts[category]),
  }));
  adjudication.push({
    category: concept(`${CS}ksa-adjudication`, "approved-quantity"),
    value: row.approved_quantity,
  });
  const refused = amounts.submitted - amounts.eligible;
  for (const reason of reasonsOf(row))
    adjudication.push({
      category: concept(`${CS}ksa-adjudication`, "rejected"),
      reason: {
        ...(reason.nphiesCode === null
          ? concept(ENGINE_REASON, reason.code)
          : concept(ADJUDICATION_REASON, reason.nphiesCode)),
        text: reason.message,
      },
      amount: moneyOf(refused),
    });
  return {
    itemSequence: origin.items[row.item_index]?.sequence ?? row.item_index + 1,
    extension: [
      {
        url: EXTENSION.adjudicationOutcome,
        valueCodeableConcept: concept(ADJUDICATION_OUTCOME, itemOutcome(row)),
      },
    ],
    adjudication,
  };
}

const DISPOSITION: Record<Outcome, string> = {
  approved: "Approved",
  partial: "Partially approved",
  rejected: "Rejected",
  pended: "Pended: held for a reviewer; the final response follows",
};

/**
 * The response message to a NPHIES priorauth-request or claim-request, as the request now stands: the
 * first answer (the engine's decisions) and, after a reviewer's decision, the final one. README "NPHIES
 * FHIR interface" lists every element.
 */
export function claimResponseBundleOf(
  pa: PriorAuthRow,
  origin: FhirOrigin,
  rows: readonly ItemRow[],
  at: Date,
): Bundle {
  const outcome = requestOutcome(rows);
  const preauth = origin.event === "priorauth-request";
  const amounts = rows.map((row) => itemAmounts(row, origin.items[row.item_index]));
  const total = (category: (typeof CATEGORIES)[number]) =>
    amounts.reduce((sum, item) => sum + item[category], 0);
  const payer = origin.payer_license ?? "";
  const start = new Date(
    Date.UTC(
      pa.treatment_date.getUTCFullYear(),
      pa.treatment_date.getUTCMonth(),
      pa.treatment_date.getUTCDate(),
    ),
  );
  const validDays = pa.referral_valid_days ?? PREAUTH_VALID_DAYS;
  const claimResponse: ClaimResponse = {
    resourceType: "ClaimResponse",
    id: String(pa.id),
    meta: { profile: [profile(preauth ? "prior-auth-response" : "claim-response")] },
    extension: [
      { url: EXTENSION.adjudicationOutcome, valueCodeableConcept: concept(ADJUDICATION_OUTCOME, outcome) },
    ],
    identifier: [
      { system: `${PAYER_LICENSE}/${payer}/claimresponse`, value: `${pa.transaction_id}-${pa.engine_runs}` },
    ],
    status: pa.status === "CANCELLED" ? "cancelled" : "active",
    type: concept(`${HL7}claim-type`, origin.claim_type),
    ...(origin.claim_sub_type === null
      ? {}
      : { subType: concept(`${CS}claim-subtype`, origin.claim_sub_type) }),
    use: preauth ? "preauthorization" : "claim",
    patient: { reference: origin.patient.fullUrl },
    created: at.toISOString(),
    insurer:
      origin.insurer === null
        ? { identifier: { system: PAYER_LICENSE, value: payer } }
        : { reference: origin.insurer.fullUrl },
    requestor: { reference: origin.provider.fullUrl },
    request: {
      type: "Claim",
      identifier: {
        ...(origin.claim_identifier.system === null ? {} : { system: origin.claim_identifier.system }),
        value: origin.claim_identifier.value,
      },
    },
    outcome: outcome === "pended" ? "queued" : "complete",
    disposition: pa.note === null ? DISPOSITION[outcome] : `${DISPOSITION[outcome]}. ${pa.note}`,
    ...(preauth && outcome !== "rejected"
      ? {
          preAuthRef: pa.authorization_number,
          preAuthPeriod: {
            start: start.toISOString().slice(0, 10),
            end: new Date(start.getTime() + validDays * DAY).toISOString().slice(0, 10),
          },
        }
      : {}),
    item: rows.map((row, index) => itemOf(row, origin, amounts[index] as Amounts)),
    total: CATEGORIES.filter((category) => category !== "submitted").map((category) => ({
      category: concept(`${HL7}adjudication`, category),
      amount: moneyOf(total(category)),
    })),
    insurance: [{ sequence: 1, focal: true, coverage: { reference: origin.coverage.fullUrl } }],
  };
  return responseMessageOf(
    {
      event: RESPONSE_EVENT[origin.event],
      requestMessageId: origin.message_id,
      providerLicense: origin.provider_license,
      payerLicense: payer,
      at,
    },
    claimResponse,
    [origin.patient, origin.coverage, origin.provider, ...(origin.insurer === null ? [] : [origin.insurer])],
  );
}
