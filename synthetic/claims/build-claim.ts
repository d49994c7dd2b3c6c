/**
 * A claim as a provider's system sends it, for an encounter: the header fields (the optional ones as the
 * provider sends them), the member's details, a pre-authorization where the care calls for one, and the
 * items at the provider's prices.
 */
import type { BatchClaimInput, BatchClaimItemInput } from "../../src/modules/claims-batch/claim.js";
import { clock, dateText } from "../dates.js";
import type { Service } from "../population/services.js";
import { JUSTIFICATIONS, MARITAL, PROVIDER_TYPES, SENT_BIT, type Sent } from "../population/shares.js";
import type { Rng } from "../random.js";
import { type ClaimSpec, NONE, type Population } from "../types.js";
import { CHRONIC_DX, type Encounter, SETTING_TYPE } from "./encounters.js";
import { billedServices } from "./services.js";

/** item and pre-authorization numbers, counted on */
export interface Serials {
  item: number;
  preAuth: number;
}

/** what building a claim needs from the batch */
export interface ClaimSource {
  pop: Population;
  itemsMin: number;
  itemsMax: number;
  /** the unit price a provider bills for a service */
  price(p: number, s: Service): number;
}

export function buildClaim(
  source: ClaimSource,
  e: Encounter,
  rng: Rng,
  serials: Serials,
  id: string,
  spec?: ClaimSpec,
): BatchClaimInput {
  const { pop } = source;
  const { member: m, provider: p, dx, setting, age } = e;
  const sends = (name: Sent): boolean => ((pop.providerSends[p] as number) & SENT_BIT[name]) !== 0;
  const inpatient = setting === "inpatient";
  const emergency = setting === "er" || (inpatient && dx.er !== undefined && rng.chance(0.7));
  const pharmacy = setting === "pharmacy";
  const daysSupply = !pharmacy
    ? 0
    : dx.chronic === true
      ? rng.pick([30, 30, 30, 30, 60, 90])
      : rng.pick([3, 5, 7, 7, 10, 14]);
  const { picked, quantity } = billedServices(e, daysSupply, rng, source, spec);
  const claim: BatchClaimInput = {
    claim_id: id,
    claim_type: inpatient || (setting === "er" && rng.chance(0.6)) ? "INSTITUTIONAL" : "PROFESSIONAL",
    claim_sub_type: inpatient ? "IN_PATIENT" : setting === "er" ? "EMERGENCY" : "OUT_PATIENT",
    claim_date: dateText(e.day),
    primary_diagnosis_code: dx.code,
    primary_diagnosis_description: dx.name,
    member_id: pop.memberId[m] as string,
    member_dob: `${dateText(pop.memberDob[m] as number)}T00:00:00.000Z`,
    member_gender: e.sex === 0 ? "MALE" : "FEMALE",
    provider_id: pop.providerId[p] as string,
    medical_provider_type: PROVIDER_TYPES[SETTING_TYPE[setting]] as BatchClaimInput["medical_provider_type"],
    ph_id: pop.phId[pop.memberPh[m] as number] as string,
    insurance_start_date: dateText(pop.memberInsuranceStart[m] as number),
    claim_items: [],
  };
  const urgent = inpatient && dx.inpatient?.package === true && dx.sex === "FEMALE"; // a delivery
  if (emergency || inpatient || sends("emergencyFlag")) claim.is_emergency = emergency;
  if (emergency || inpatient || sends("encounter"))
    claim.type_of_encounter = emergency
      ? rng.chance(0.75)
        ? "EMERGENCY"
        : "URGENT"
      : urgent || rng.chance(0.08)
        ? "URGENT"
        : "ROUTINE";
  if (inpatient) {
    claim.admission_date = dateText(e.admission);
    claim.discharge_date = dateText(e.day);
  }
  if (!pharmacy && sends("specialty"))
    claim.doctor_specialty =
      setting === "er"
        ? "Emergency Medicine"
        : age < 14 && (dx.specialty === "Family Medicine" || dx.specialty === "Internal Medicine")
          ? "Pediatrics"
          : dx.specialty;
  if (inpatient && rng.chance(0.9)) {
    claim.admission_code = dx.code;
    claim.admission_diagnosis = dx.name;
  }
  const secondary = CHRONIC_DX.filter((d, i) => (e.chronic & (1 << i)) !== 0 && d !== dx);
  if (secondary.length > 0 && rng.chance(0.85))
    claim.secondary_diagnosis_codes = secondary.map((d) => ({
      type: "secondary",
      code: d.code,
      name: d.name,
    }));
  const marital = pop.memberMarital[m] as number;
  if (marital >= 0) claim.marital_status = MARITAL[marital];
  const vip = pop.memberVip[m] as number;
  if (vip >= 0) claim.is_vip = vip === 1;
  if (pharmacy && rng.chance(0.9)) claim.days_supply = daysSupply;
  if (inpatient || sends("packageFlag"))
    claim.is_package = inpatient && dx.inpatient?.package === true && rng.chance(0.8);
  const addition = pop.memberAddition[m] as number;
  if (addition !== NONE) claim.insurance_addition_date = dateText(addition);
  if (rng.chance(inpatient ? 0.9 : picked.some((s) => s.preAuth) ? 0.8 : 0.03)) {
    serials.preAuth += 1;
    claim["pre-auth_number"] = `PA-${serials.preAuth}`;
    claim["pre-auth_status"] = rng.chance(0.94) ? "APPROVED" : "PENDING";
  }
  const itemTimes = inpatient && rng.chance(0.6);
  const admitted = `${dateText(e.admission)}T${clock(rng.int(0, 719))}`;
  const discharged = `${dateText(e.day)}T${clock(rng.int(720, 1200))}`;
  for (const [k, s] of picked.entries()) {
    const item: BatchClaimItemInput = {
      claimed_quantity: quantity[k] as number,
      claimed_amount: source.price(p, s),
      service_code: s.code,
      service_description: s.description,
    };
    const dispensed = pharmacy && s.kind === "drug";
    if (dispensed && sends("duration")) item.duration = `${daysSupply} days`;
    if (itemTimes) {
      item.admission_date = admitted;
      item.discharge_date = discharged;
    }
    if (dispensed && s.frequency !== undefined && sends("frequency")) item.frequency = s.frequency;
    if (rng.chance(s.preAuth ? 0.15 : 0.01)) item.justification = rng.pick(JUSTIFICATIONS);
    serials.item += 1;
    if (sends("erpItem") && rng.chance(0.97)) item.erp_item_id = String(10_000_000 + serials.item);
    if (sends("nphiesCode")) item.nphies_code = s.code;
    if (sends("nphiesType")) item.nphies_type = s.nphiesType;
    if (sends("serviceType")) item.service_type = s.nphiesType;
    claim.claim_items.push(item);
  }
  return claim;
}
