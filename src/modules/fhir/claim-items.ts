import {
  CS,
  EXTENSION,
  type FhirClaimType,
  INFORMATION_CATEGORY,
  SERVICE_SYSTEMS,
} from "../../reference/nphies-fhir.js";
import type { ItemInput } from "../prior-auth/schemas.js";
import type { Entry, Message } from "./bundle.js";
import type { FhirClaim, FhirItem } from "./schemas.js";
import { codeIn, instantOf } from "./values.js";

/** A Claim's items and supporting info as the engine's request takes them, each problem named by FHIRPath. */

const cents = (riyals: number): number => Math.round(riyals * 100);

const moneyExtension = (extensions: FhirItem["extension"], url: string) =>
  extensions?.find((extension) => extension.url === url)?.valueMoney?.value ?? 0;

/** the NPHIES coding of an item, and the provider's own code when it rides as another coding */
function serviceOf(item: FhirItem, path: string, claimType: FhirClaimType, message: Message) {
  const codings = item.productOrService.coding;
  const nphies = codings.find((coding) => coding.system !== undefined && coding.system in SERVICE_SYSTEMS);
  if (nphies?.code === undefined || nphies.system === undefined) {
    message.problems.add(
      `${path}.productOrService`,
      `must hold a coding from a NPHIES code system (${Object.keys(SERVICE_SYSTEMS).join(", ")})`,
    );
    return undefined;
  }
  const own = codings.find((coding) => coding !== nphies && coding.code !== undefined);
  const bySystem = SERVICE_SYSTEMS[nphies.system] ?? "AMBULATORY";
  const type = claimType === "vision" && bySystem === "AMBULATORY" ? "OPTICAL" : bySystem;
  const description = nphies.display ?? item.productOrService.text ?? own?.display ?? nphies.code;
  return {
    service_code: own?.code ?? nphies.code,
    service_description: description.slice(0, 255),
    nphies_code: nphies.code,
    nphies_type: type,
    service_type: type,
  };
}

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
    const quantity = item.quantity?.value ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1)
      problems.add(`${path}.quantity.value`, "must be a whole number of at least 1");
    const tax = moneyExtension(item.extension, EXTENSION.tax);
    const patientShare = moneyExtension(item.extension, EXTENSION.patientShare);
    // without a unit price, the net says it: net = quantity x unit price x factor + tax - patient share
    const unit =
      item.unitPrice?.value ??
      (item.net === undefined
        ? 0
        : Math.max(
            0,
            Math.round(
              ((item.net.value - tax + patientShare) / (item.factor ?? 1) / Math.max(1, quantity)) * 100,
            ) / 100,
          ));
    if (item.unitPrice === undefined && item.net === undefined)
      problems.add(`${path}.unitPrice`, "is required when the item has no net");
    if (Math.abs(cents(unit) - unit * 100) > 1e-6)
      problems.add(`${path}.unitPrice.value`, "must have at most 2 decimals");
    if (item.net !== undefined && item.unitPrice !== undefined) {
      const expected = cents(unit) * quantity * (item.factor ?? 1) + cents(tax) - cents(patientShare);
      if (Math.abs(cents(item.net.value) - expected) > 1)
        problems.add(
          `${path}.net`,
          `must be quantity x unitPrice + tax - patient share = ${(expected / 100).toFixed(2)}, not ${item.net.value}`,
        );
    }
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
      ...(daysSupply?.valueQuantity ? { duration: `${daysSupply.valueQuantity.value} days` } : {}),
    };
    return { input, sequence: item.sequence, tax, patientShare };
  });
}

export function supportingInfoOf(claim: Entry<FhirClaim>, created: string, message: Message) {
  return (claim.resource.supportingInfo ?? []).flatMap((info, index) => {
    const category = codeIn(info.category, `${CS}claim-information-category`)?.code;
    if (category === undefined || !(category in INFORMATION_CATEGORY)) {
      message.problems.add(
        `${claim.path}.supportingInfo[${index}].category`,
        `must hold a ${CS}claim-information-category coding this payer knows`,
      );
      return [];
    }
    const start = info.timingPeriod?.start ?? info.timingDate ?? created;
    const attachment = info.valueAttachment;
    const value =
      attachment?.data ??
      info.valueString ??
      (info.valueQuantity ? String(info.valueQuantity.value) : undefined) ??
      (info.valueBoolean === undefined ? undefined : String(info.valueBoolean)) ??
      info.code?.coding?.[0]?.code;
    return [
      {
        sequence_number: info.sequence,
        code: INFORMATION_CATEGORY[category as keyof typeof INFORMATION_CATEGORY],
        type: category,
        ...(value === undefined ? {} : { value: value.slice(0, attachment?.data ? undefined : 1000) }),
        ...(info.valueQuantity?.unit ? { unit: info.valueQuantity.unit.slice(0, 50) } : {}),
        ...(attachment?.title ? { file_name: attachment.title } : {}),
        start_date: instantOf(start),
        end_date: instantOf(info.timingPeriod?.end ?? start),
      },
    ];
  });
}
