import {
  CS,
  EXTENSION,
  type FhirClaimType,
  INFORMATION_CATEGORY,
  SERVICE_SYSTEMS,
} from "../../reference/nphies-fhir.js";
import type { CreateInput, ItemInput } from "../prior-auth/schemas.js";
import type { Entry, Message } from "./bundle.js";
import type { OriginItem } from "./origin.js";
import type { FhirClaim, FhirItem } from "./schemas.js";
import { codeIn, instantOf } from "./values.js";

/** A Claim's items and supporting info as the engine's request takes them, each problem named by FHIRPath. */

const cents = (riyals: number): number => Math.round(riyals * 100);

const moneyExtension = (extensions: FhirItem["extension"], url: string) =>
  extensions?.find((extension) => extension.url === url)?.valueMoney?.value ?? 0;

/** the service type a claim type bills when an item's code system says none */
const TYPE_OF_CLAIM: Record<FhirClaimType, ItemInput["service_type"]> = {
  institutional: "AMBULATORY",
  professional: "AMBULATORY",
  pharmacy: "PHARMACEUTICAL",
  oral: "DENTAL",
  vision: "OPTICAL",
};

/**
 * The NPHIES coding of an item and the provider's own code when it rides as another coding. Shadow billing
 * sends two codings: an unlisted drug's NPHIES code (99999999999999) beside its SFDA code, which is the one
 * the payer prices; a coding from a system NPHIES passed but this payer does not list is kept as it is.
 */
function serviceOf(item: FhirItem, path: string, claimType: FhirClaimType, message: Message) {
  const codings = item.productOrService.coding.filter((coding) => coding.code !== undefined);
  const nphies =
    codings.find((coding) => coding.system !== undefined && coding.system in SERVICE_SYSTEMS) ?? codings[0];
  if (nphies?.code === undefined) {
    message.problems.add(`${path}.productOrService.coding`, "must hold a coded product or service");
    return undefined;
  }
  const own = codings.find((coding) => coding !== nphies);
  const bySystem =
    nphies.system === undefined ? undefined : (SERVICE_SYSTEMS[nphies.system] as ItemInput["service_type"]);
  const type =
    bySystem === undefined || (claimType === "vision" && bySystem === "AMBULATORY")
      ? TYPE_OF_CLAIM[claimType]
      : bySystem;
  const description = nphies.display ?? item.productOrService.text ?? own?.display ?? nphies.code;
  return {
    service_code: (own?.code ?? nphies.code).slice(0, 255),
    service_description: description.slice(0, 255),
    nphies_code: nphies.code,
    nphies_type: type,
    service_type: type,
  };
}

/** the value of a supporting info's quantity, sent as a number or as text */
const quantityValue = (info: NonNullable<FhirClaim["supportingInfo"]>[number]) =>
  info.valueQuantity === undefined ? undefined : Number(info.valueQuantity.value);

export function itemsOf(claim: Entry<FhirClaim>, claimType: FhirClaimType, message: Message) {
  const { problems } = message;
  const resource = claim.resource;
  const sequences = new Set<number>();
  const known = {
    diagnosisSequence: new Set(resource.diagnosis.map((diagnosis) => diagnosis.sequence)),
    careTeamSequence: new Set((resource.careTeam ?? []).map((member) => member.sequence)),
    informationSequence: new Set((resource.supportingInfo ?? []).map((info) => info.sequence)),
  };
  return resource.item.map((item, index) => {
    const path = `${claim.path}.item[${index}]`;
    if (sequences.has(item.sequence))
      problems.add(`${path}.sequence`, `${item.sequence} is used by another item`);
    sequences.add(item.sequence);
    for (const [field, set] of Object.entries(known) as [keyof typeof known, Set<number>][])
      item[field]?.forEach((sequence, position) => {
        if (!set.has(sequence))
          problems.add(`${path}.${field}[${position}]`, `${sequence} names no entry of the Claim`);
      });
    // a fractional quantity (a part of a pack) is billed as one unit at its net
    const sent = item.quantity?.value ?? 1;
    const quantity = Number.isInteger(sent) && sent >= 1 ? sent : 1;
    const factor = item.factor ?? 1;
    const tax = moneyExtension(item.extension, EXTENSION.tax);
    const patientShare = moneyExtension(item.extension, EXTENSION.patientShare);
    // what the provider claims a unit at: NPHIES's net is quantity x unit price x factor + tax
    const unitPrice = item.unitPrice?.value;
    const unit =
      unitPrice !== undefined && Number.isInteger(sent) && sent >= 1
        ? cents(unitPrice * factor) / 100
        : item.net === undefined
          ? (unitPrice ?? 0)
          : Math.max(0, cents((item.net.value - tax) / quantity) / 100);
    if (item.unitPrice === undefined && item.net === undefined)
      problems.add(`${path}.unitPrice`, "is required when the item has no net");
    if (
      item.servicedPeriod?.start &&
      item.servicedPeriod.end &&
      item.servicedPeriod.end < item.servicedPeriod.start
    )
      problems.add(`${path}.servicedPeriod.end`, "must not be before servicedPeriod.start");
    const service = serviceOf(item, path, claimType, message);
    const daysSupply = item.informationSequence
      ?.map((sequence) => resource.supportingInfo?.find((info) => info.sequence === sequence))
      .find((info) => codeIn(info?.category, `${CS}claim-information-category`)?.code === "days-supply");
    const days = daysSupply === undefined ? undefined : quantityValue(daysSupply);
    const input: ItemInput = {
      service_code: service?.service_code ?? "",
      service_description: service?.service_description ?? "",
      nphies_code: service?.nphies_code ?? "",
      nphies_type: service?.nphies_type ?? "AMBULATORY",
      service_type: service?.service_type ?? "AMBULATORY",
      claimed_quantity: quantity,
      claimed_amount: unit,
      erp_item_id: String(item.sequence),
      ...(item.servicedPeriod?.start ? { admission_date: instantOf(item.servicedPeriod.start) } : {}),
      ...(item.servicedPeriod?.end ? { discharge_date: instantOf(item.servicedPeriod.end) } : {}),
      ...(days === undefined ? {} : { duration: `${days} days` }),
    };
    const invoice = item.extension?.find(
      (extension) => extension.url === EXTENSION.patientInvoice,
    )?.valueIdentifier;
    const origin: OriginItem = {
      sequence: item.sequence,
      tax,
      patient_share: patientShare,
      ...(item.net === undefined ? {} : { net: item.net.value }),
      ...(invoice === undefined ? {} : { patient_invoice: invoice }),
      ...(item.detail === undefined || item.detail.length === 0
        ? {}
        : {
            details: item.detail.map((detail) => ({
              sequence: detail.sequence,
              net: detail.net?.value ?? (detail.unitPrice?.value ?? 0) * (detail.quantity?.value ?? 1),
            })),
          }),
    };
    return { input, origin };
  });
}

/** the text a supporting info carries, whichever value type it came as */
function infoValueOf(info: NonNullable<FhirClaim["supportingInfo"]>[number]): string | undefined {
  const attachment = info.valueAttachment;
  if (attachment?.data !== undefined) return attachment.data;
  if (info.valueString !== undefined) return info.valueString.slice(0, 1000);
  const quantity = quantityValue(info);
  if (quantity !== undefined) return String(quantity);
  if (info.valueBoolean !== undefined) return String(info.valueBoolean);
  if (info.valueReference?.reference !== undefined) return info.valueReference.reference.slice(0, 1000);
  if (info.valueReference?.identifier?.value !== undefined) return info.valueReference.identifier.value;
  const code = info.code?.coding?.[0]?.code;
  const text = info.code?.text;
  if (code !== undefined) return (text === undefined ? code : `${code} ${text}`).slice(0, 1000);
  return text?.slice(0, 1000) ?? attachment?.url?.slice(0, 1000);
}

export function supportingInfoOf(
  claim: Entry<FhirClaim>,
  created: string,
  _message: Message,
): NonNullable<CreateInput["supporting_info"]> {
  return (claim.resource.supportingInfo ?? []).map((info) => {
    const category =
      codeIn(info.category, `${CS}claim-information-category`)?.code ?? info.category.coding[0]?.code;
    const start = info.timingPeriod?.start ?? info.timingDate ?? created;
    const attachment = info.valueAttachment;
    const value = infoValueOf(info);
    const code =
      category !== undefined && category in INFORMATION_CATEGORY
        ? INFORMATION_CATEGORY[category as keyof typeof INFORMATION_CATEGORY]
        : "OTHER";
    return {
      sequence_number: info.sequence,
      code,
      type: (category ?? "info").slice(0, 255),
      ...(value === undefined ? {} : { value }),
      ...(info.valueQuantity?.unit || info.valueQuantity?.code
        ? { unit: (info.valueQuantity.unit ?? info.valueQuantity.code ?? "").slice(0, 50) }
        : {}),
      ...(attachment?.title ? { file_name: attachment.title.slice(0, 255) } : {}),
      start_date: instantOf(start),
      end_date: instantOf(info.timingPeriod?.end ?? start),
    };
  });
}
