import type { ProviderCreateInput } from "../modules/providers/schemas.js";
import type { Category } from "./people.js";

/** The demo's reference data: networks, providers and their contract prices, holders, policies, templates. */

export const NETWORKS = ["GOLD", "SILVER"] as const;

export interface DemoProvider extends ProviderCreateInput {
  cchi_no: string;
  /** the networks it is contracted in */
  networks: readonly (typeof NETWORKS)[number][];
  /** its prices against the reference prices below */
  priceFactor: number;
  services: readonly ServiceCode[];
  /** how a claims batch names its kind */
  batchType: "CLINIC" | "HOSPITAL" | "PHARMACY" | "LABORATORY";
}

export interface DemoService {
  description: string;
  nphiesCode: string;
  type: "CONSULTATION" | "AMBULATORY" | "PHARMACEUTICAL";
  department: string;
  /** the reference price in SAR, which each provider's contract scales */
  price: number;
  benefit: number;
  subBenefit?: number;
}

// biome-ignore format: one service to a line
export const SERVICES = {
  "CONS-GP": { description: "General practitioner consultation", nphiesCode: "99213", type: "CONSULTATION", department: "Outpatient", price: 150, benefit: 1, subBenefit: 11 },
  "CONS-SPEC": { description: "Specialist consultation", nphiesCode: "99214", type: "CONSULTATION", department: "Outpatient", price: 300, benefit: 1, subBenefit: 11 },
  "LAB-CBC": { description: "Complete blood count", nphiesCode: "85025", type: "AMBULATORY", department: "Laboratory", price: 55, benefit: 1, subBenefit: 12 },
  "LAB-HBA1C": { description: "Haemoglobin A1c", nphiesCode: "83036", type: "AMBULATORY", department: "Laboratory", price: 90, benefit: 1, subBenefit: 12 },
  "LAB-LIPID": { description: "Lipid panel", nphiesCode: "80061", type: "AMBULATORY", department: "Laboratory", price: 120, benefit: 1, subBenefit: 12 },
  "LAB-TSH": { description: "Thyroid stimulating hormone", nphiesCode: "84443", type: "AMBULATORY", department: "Laboratory", price: 110, benefit: 1, subBenefit: 12 },
  "RAD-XR-CHEST": { description: "Chest X-ray, two views", nphiesCode: "71046", type: "AMBULATORY", department: "Radiology", price: 180, benefit: 1, subBenefit: 13 },
  "RAD-US-ABD": { description: "Abdominal ultrasound", nphiesCode: "76700", type: "AMBULATORY", department: "Radiology", price: 450, benefit: 1, subBenefit: 13 },
  "RAD-MRI-KNEE": { description: "MRI of the knee without contrast", nphiesCode: "73721", type: "AMBULATORY", department: "Radiology", price: 1100, benefit: 1, subBenefit: 13 },
  "MED-METF": { description: "Metformin 500 mg tablets, 60", nphiesCode: "7000000140", type: "PHARMACEUTICAL", department: "Pharmacy", price: 25, benefit: 2 },
  "MED-AMOX": { description: "Amoxicillin 500 mg capsules, 21", nphiesCode: "7000000251", type: "PHARMACEUTICAL", department: "Pharmacy", price: 18, benefit: 2 },
} as const satisfies Record<string, DemoService>;

export type ServiceCode = keyof typeof SERVICES;

const CONSULTATIONS: ServiceCode[] = ["CONS-GP", "CONS-SPEC"];
const LABS: ServiceCode[] = ["LAB-CBC", "LAB-HBA1C", "LAB-LIPID", "LAB-TSH"];
const IMAGING: ServiceCode[] = ["RAD-XR-CHEST", "RAD-US-ABD", "RAD-MRI-KNEE"];
const MEDICATIONS: ServiceCode[] = ["MED-METF", "MED-AMOX"];

const provider = (
  cchi_no: string,
  name: string,
  city: string,
  type: NonNullable<ProviderCreateInput["type"]>,
  batchType: DemoProvider["batchType"],
  networks: DemoProvider["networks"],
  priceFactor: number,
  services: ServiceCode[],
): DemoProvider => ({
  cchi_no,
  name,
  city,
  type,
  batchType,
  networks,
  priceFactor,
  services,
  nphies_id: `NPHIES-${cchi_no.slice(5)}`,
  phone_number: `+966 11 ${cchi_no.slice(7)} 4000`,
});

const BOTH = ["GOLD", "SILVER"] as const;

// biome-ignore format: one provider to a line
export const PROVIDERS: readonly DemoProvider[] = [
  provider("CCHI-10001", "Al Shifa Specialist Hospital", "Riyadh", "HOSPITAL", "HOSPITAL", ["GOLD"], 1.25, [...CONSULTATIONS, ...LABS, ...IMAGING, ...MEDICATIONS]),
  provider("CCHI-10002", "Al Salam Polyclinic", "Riyadh", "POLYCLINIC", "CLINIC", BOTH, 1, [...CONSULTATIONS, ...LABS, "RAD-XR-CHEST", "RAD-US-ABD"]),
  provider("CCHI-10003", "Corniche Hospital", "Jeddah", "HOSPITAL", "HOSPITAL", BOTH, 1.05, [...CONSULTATIONS, ...LABS, ...IMAGING]),
  provider("CCHI-10004", "Eastern Province Hospital", "Dammam", "HOSPITAL", "HOSPITAL", BOTH, 0.95, [...CONSULTATIONS, ...LABS, ...IMAGING]),
  provider("CCHI-10005", "Al Madinah Family Clinic", "Madinah", "CLINIC", "CLINIC", BOTH, 0.9, ["CONS-GP", ...LABS]),
  provider("CCHI-10006", "Asir Diagnostic Laboratories", "Abha", "LABS", "LABORATORY", BOTH, 0.9, LABS),
  provider("CCHI-10007", "Al Waha Pharmacy", "Riyadh", "PHARMACY", "PHARMACY", BOTH, 1, MEDICATIONS),
  provider("CCHI-10008", "Al Rawabi Day Surgery Centre", "Tabuk", "ONE_DAY_SURGERY_CENTER", "HOSPITAL", ["GOLD"], 1.1, [...CONSULTATIONS, ...IMAGING]),
  provider("CCHI-10009", "Al Khobar Specialist Clinic", "Khobar", "CLINIC", "CLINIC", BOTH, 1, [...CONSULTATIONS, ...LABS]),
  provider("CCHI-10010", "Makkah Care Polyclinic", "Makkah", "POLYCLINIC", "CLINIC", BOTH, 0.95, [...CONSULTATIONS, ...LABS, "RAD-XR-CHEST"]),
];

/**
 * The haemoglobin A1c price of each contract, close to the reference 90 (the anomaly score's peers
 * are the tenant's approved requests of it at these prices); other services follow the factor.
 */
const HBA1C_PRICES: Record<string, number> = {
  "CCHI-10001": 110,
  "CCHI-10002": 90,
  "CCHI-10003": 92,
  "CCHI-10004": 88,
  "CCHI-10005": 90,
  "CCHI-10006": 85,
  "CCHI-10009": 95,
  "CCHI-10010": 90,
};

/** a provider's contract price of a service, in SAR */
export function contractPrice(cchiNo: string, code: ServiceCode): number {
  const found = PROVIDERS.find((p) => p.cchi_no === cchiNo);
  if (found === undefined || !found.services.includes(code))
    throw new Error(`${cchiNo} has no contract price for ${code}`);
  if (code === "LAB-HBA1C") return HBA1C_PRICES[cchiNo] as number;
  return Math.round(SERVICES[code].price * found.priceFactor);
}

export const HOLDERS = [
  {
    ph_erp_id: "PH-ALNOOR",
    name: "Al Noor Trading Company",
    insurance_type: "NORMAL",
    province: "Riyadh",
    registration_number: "1010234567",
  },
  {
    ph_erp_id: "PH-REDSEA",
    name: "Red Sea Logistics",
    insurance_type: "NORMAL",
    province: "Makkah",
    registration_number: "4030456789",
  },
] as const;

export const POLICIES = {
  2026: {
    ph_erp_id: "PH-ALNOOR",
    policy_no: "POL-2026-ALNOOR",
    start_date: "2026-01-01",
    end_date: "2026-12-31",
    created_date: "2025-12-10",
    status: "ACTIVE",
  },
  2025: {
    ph_erp_id: "PH-REDSEA",
    policy_no: "POL-2025-REDSEA",
    start_date: "2025-01-01",
    end_date: "2025-12-31",
    created_date: "2024-12-12",
    status: "EXPIRED",
  },
} as const;

export interface DemoBenefit {
  code: number;
  description: string;
  limit: number;
  subBenefits: readonly { code: number; description: string; limit: number }[];
}

const outpatient = (limit: number, consultations: number, labs: number, imaging: number): DemoBenefit => ({
  code: 1,
  description: "Outpatient",
  limit,
  subBenefits: [
    { code: 11, description: "Consultations", limit: consultations },
    { code: 12, description: "Laboratory", limit: labs },
    { code: 13, description: "Radiology", limit: imaging },
  ],
});
const benefit = (code: number, description: string, limit: number): DemoBenefit => ({
  code,
  description,
  limit,
  subBenefits: [],
});

/** category > benefit > sub-benefit limits in SAR; category C's radiology is the small limit */
export const TEMPLATES: Record<
  2025 | 2026,
  Partial<Record<Category, { limit: number; benefits: DemoBenefit[] }>>
> = {
  2026: {
    A: {
      limit: 500_000,
      benefits: [
        outpatient(50_000, 10_000, 10_000, 20_000),
        benefit(2, "Medications", 20_000),
        benefit(3, "Inpatient", 400_000),
        benefit(4, "Maternity", 15_000),
      ],
    },
    B: {
      limit: 250_000,
      benefits: [
        outpatient(25_000, 5_000, 5_000, 8_000),
        benefit(2, "Medications", 8_000),
        benefit(3, "Inpatient", 200_000),
        benefit(4, "Maternity", 10_000),
      ],
    },
    C: {
      limit: 100_000,
      benefits: [
        outpatient(6_000, 1_500, 1_500, 800),
        benefit(2, "Medications", 2_000),
        benefit(3, "Inpatient", 80_000),
      ],
    },
  },
  2025: {
    B: {
      limit: 200_000,
      benefits: [outpatient(20_000, 4_000, 4_000, 6_000), benefit(2, "Medications", 6_000)],
    },
  },
};
