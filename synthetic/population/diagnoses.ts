/**
 * The diagnoses that claims are built around, each with the services that go with it in each setting.
 * Diagnoses are ICD-10 (descriptions from the ICD-10-CM short list where the code is in it), with the sex and
 * age limits of src/reference/clinical.ts and the CMS MCE edits respected: no O or Z3x codes for males, no
 * N40-N53 for females, P codes at age 0 only.
 */
import { fits, type Sex, service } from "./services.js";
import type { Setting } from "./shares.js";

export interface Diagnosis {
  code: string;
  name: string;
  /** relative frequency as the primary diagnosis of an office visit (and of pharmacy, lab, radiology claims) */
  weight: number;
  sex?: Sex;
  minAge: number;
  maxAge: number;
  specialty: string;
  /** a long-term condition: members have it (or not); it comes back as primary and as secondary */
  chronic?: boolean;
  /** the visit is a preventive visit (its code follows the age) */
  preventive?: boolean;
  /** seen in hospital wards only */
  inpatientOnly?: boolean;
  office: readonly string[];
  lab: readonly string[];
  radiology: readonly string[];
  pharmacy: readonly string[];
  /** weight in the emergency room (absent: not an emergency) */
  er?: number;
  /** what an emergency visit adds to the office services */
  erExtra?: readonly string[];
  inpatient?: {
    weight: number;
    /** length of stay, days */
    los: readonly [number, number];
    /** always billed: the surgery or delivery and its anaesthesia */
    main: readonly string[];
    extra: readonly string[];
    /** usually billed as a package */
    package?: boolean;
  };
}

type DxServices = Partial<Pick<Diagnosis, "office" | "lab" | "radiology" | "pharmacy">>;
type DxOptions = Partial<Omit<Diagnosis, "code" | "name" | "weight" | "specialty" | keyof DxServices>>;
const dx = (
  [code, name, weight, specialty, minAge, maxAge]: readonly [string, string, number, string, number, number],
  services: DxServices,
  options: DxOptions = {},
): Diagnosis => ({
  ...{ code, name, weight, specialty, minAge, maxAge },
  ...{ office: [], lab: [], radiology: [], pharmacy: [], ...services },
  ...options,
});

const FM = "Family Medicine";
const IM = "Internal Medicine";
const ENT = "Otolaryngology";
const OBG = "Obstetrics and Gynecology";
const ORTHO = "Orthopedics";
const GI = "Gastroenterology";
const MAX = 200;

// biome-ignore format: one diagnosis per block keeps the table scannable
export const DIAGNOSES: readonly Diagnosis[] = [
  dx(["J06.9", "Acute upper respiratory infection, unspecified", 14, FM, 0, MAX],
    { office: ["87804", "86140", "85025", "J1100"], pharmacy: ["RX101", "RX102", "RX109", "RX143", "RX141", "RX142", "RX103", "RX104"] },
    { er: 3 }),
  dx(["J02.9", "Acute pharyngitis, unspecified", 6, FM, 3, MAX],
    { office: ["87880", "86140", "85025", "J0696"], pharmacy: ["RX105", "RX106", "RX101", "RX102", "RX103", "RX104"] }),
  dx(["J03.90", "Acute tonsillitis, unspecified", 4, ENT, 3, 60],
    { office: ["87880", "86140", "85025", "J0696"], pharmacy: ["RX105", "RX106", "RX108", "RX101", "RX102"] }),
  dx(["J20.9", "Acute bronchitis, unspecified", 4, FM, 0, MAX],
    { office: ["71046", "94640", "J7613", "85025"], pharmacy: ["RX108", "RX122", "RX101", "RX102"] },
    { er: 2 }),
  dx(["J18.9", "Pneumonia, unspecified organism", 1.5, IM, 1, MAX],
    { office: ["71046", "85025", "86140", "94640"], pharmacy: ["RX107", "RX108", "RX101", "RX102", "RX106"] },
    { er: 2, inpatient: { weight: 3, los: [2, 6], main: [], extra: ["71046", "87040", "J0696", "94640", "86140"] } }),
  dx(["J45.909", "Unspecified asthma, uncomplicated", 3, "Pulmonology", 3, MAX],
    { office: ["94640", "J7613", "J1100"], pharmacy: ["RX122", "RX123"] },
    { er: 2, chronic: true }),
  dx(["H66.90", "Otitis media, unspecified, unspecified ear", 3, ENT, 0, 17],
    { office: ["86140", "85025"], pharmacy: ["RX106", "RX102", "RX104", "RX105", "RX101"] }),
  dx(["A09", "Infectious gastroenteritis and colitis, unspecified", 4, FM, 0, MAX],
    { office: ["96360", "J7030", "J2405", "85025"], lab: ["87045", "87177", "80053"], pharmacy: ["RX126", "RX145", "RX131", "RX101", "RX102"] },
    { er: 3 }),
  dx(["K21.9", "Gastro-esophageal reflux disease without esophagitis", 4, GI, 15, MAX],
    { office: ["83013", "85025"], lab: ["86677", "80053"], radiology: ["76700"], pharmacy: ["RX110", "RX111"] }),
  dx(["K29.70", "Gastritis, unspecified, without bleeding", 3, GI, 15, MAX],
    { office: ["83013", "85025", "J2405"], lab: ["86677", "82728"], radiology: ["76705"], pharmacy: ["RX110", "RX111", "RX131"] },
    { er: 1 }),
  dx(["K35.80", "Unspecified acute appendicitis", 0.3, "General Surgery", 5, 70],
    { office: ["85025", "86140"] },
    { er: 0.5, erExtra: ["74177", "81002"],
      inpatient: { weight: 2, los: [1, 3], main: ["44970", "00840"], extra: ["85025", "86140", "74177", "J0690", "J7030"], package: true } }),
  dx(["E11.9", "Type 2 diabetes mellitus without complications", 6, IM, 25, MAX],
    { office: ["82962", "93000", "85025"], lab: ["83036", "80053", "80061", "82043"], pharmacy: ["RX112", "RX113", "RX114", "RX146"] },
    { chronic: true }),
  dx(["E78.5", "Hyperlipidemia, unspecified", 4, IM, 25, MAX],
    { office: ["93000"], lab: ["80061", "80053", "84443"], pharmacy: ["RX117", "RX118"] },
    { chronic: true }),
  dx(["I10", "Essential (primary) hypertension", 7, IM, 25, MAX],
    { office: ["93000", "85025"], lab: ["80053", "80061", "82565", "81001"], radiology: ["93306", "76770"], pharmacy: ["RX115", "RX116"] },
    { chronic: true }),
  dx(["E03.9", "Hypothyroidism, unspecified", 2, "Endocrinology", 15, MAX],
    { lab: ["84443", "84439"], radiology: ["76536"], pharmacy: ["RX119"] },
    { chronic: true }),
  dx(["D50.9", "Iron deficiency anemia, unspecified", 2.5, FM, 1, MAX],
    { office: ["85025"], lab: ["82728", "83540", "83550"], pharmacy: ["RX120"] }),
  dx(["E55.9", "Vitamin D deficiency, unspecified", 3, FM, 1, MAX],
    { lab: ["82306", "80053"], pharmacy: ["RX121"] }),
  dx(["M54.5", "Low back pain", 5, ORTHO, 18, MAX],
    { office: ["72100", "96372", "J1885"], radiology: ["72148"], pharmacy: ["RX103", "RX136"] },
    { er: 1 }),
  dx(["M54.2", "Cervicalgia", 2, ORTHO, 18, MAX],
    { office: ["72040", "96372", "J1885"], radiology: ["72141"], pharmacy: ["RX103", "RX136"] }),
  dx(["M17.9", "Osteoarthritis of knee, unspecified", 2.5, ORTHO, 40, MAX],
    { office: ["73562", "20610", "J3301"], lab: ["85652", "86431"], radiology: ["73721"], pharmacy: ["RX103", "RX136", "RX101"] }),
  dx(["N39.0", "Urinary tract infection, site not specified", 4, FM, 1, MAX],
    { office: ["81002", "85025"], lab: ["81001", "87086"], radiology: ["76770"], pharmacy: ["RX124", "RX125", "RX101", "RX102", "RX106"] },
    { er: 1 }),
  dx(["R50.9", "Fever, unspecified", 3, FM, 0, MAX],
    { office: ["85025", "86140", "81002"], lab: ["81001", "87086"], pharmacy: ["RX101", "RX102", "RX103", "RX104"] },
    { er: 3 }),
  dx(["R51", "Headache", 3, "Neurology", 5, MAX],
    { office: ["96372", "J1885"], radiology: ["70551"], pharmacy: ["RX101", "RX102", "RX103", "RX104"] },
    { er: 2, erExtra: ["70450"] }),
  dx(["R10.9", "Unspecified abdominal pain", 3, FM, 3, MAX],
    { office: ["85025", "81002", "J2405"], lab: ["80053", "81001"], radiology: ["76700"], pharmacy: ["RX110"] },
    { er: 3, erExtra: ["74177"] }),
  dx(["L30.9", "Dermatitis, unspecified", 3, "Dermatology", 0, MAX], { pharmacy: ["RX127", "RX109", "RX143", "RX128"] }),
  dx(["L70.0", "Acne vulgaris", 1.5, "Dermatology", 12, 40], { pharmacy: ["RX129", "RX128"] }),
  dx(["H10.9", "Unspecified conjunctivitis", 2, "Ophthalmology", 0, MAX], { pharmacy: ["RX138"] }),
  dx(["Z00.00", "Encounter for general adult medical examination without abnormal findings", 3, FM, 18, MAX],
    { office: ["93000", "85025", "82962"], lab: ["80053", "80061", "83036", "84443", "82306"], radiology: ["77067", "77080"] },
    { preventive: true }),
  dx(["Z00.129", "Encounter for routine child health examination without abnormal findings", 2, "Pediatrics", 0, 17],
    { office: ["85025", "81002"] },
    { preventive: true }),
  dx(["Z34.90", "Encounter for supervision of normal pregnancy, unspecified, unspecified trimester", 2.5, OBG, 18, 45],
    { office: ["81025", "85025", "81002"], lab: ["80055", "87086", "82951"], radiology: ["76805"], pharmacy: ["RX139", "RX140", "RX120"] },
    { sex: "FEMALE" }),
  dx(["O80", "Encounter for full-term uncomplicated delivery", 0, OBG, 18, 45], {},
    { sex: "FEMALE", inpatientOnly: true,
      inpatient: { weight: 4, los: [1, 2], main: ["59409", "01967"], extra: ["85025", "J7030"], package: true } }),
  dx(["N40.0", "Benign prostatic hyperplasia without lower urinary tract symptoms", 2, "Urology", 50, MAX],
    { office: ["81002"], lab: ["84153", "81001", "82565"], radiology: ["76770"], pharmacy: ["RX130"] },
    { sex: "MALE" }),
  dx(["N76.0", "Acute vaginitis", 2, OBG, 15, 60],
    { office: ["87210"], lab: ["87070"], pharmacy: ["RX132", "RX131"] },
    { sex: "FEMALE" }),
  dx(["N94.6", "Dysmenorrhea, unspecified", 2, OBG, 13, 45],
    { radiology: ["76856"], pharmacy: ["RX133", "RX103"] },
    { sex: "FEMALE" }),
  dx(["P59.9", "Neonatal jaundice, unspecified", 3, "Pediatrics", 0, 0], { office: ["82247", "82248", "85025"] }),
  dx(["I20.9", "Angina pectoris, unspecified", 1, "Cardiology", 40, MAX],
    { office: ["93000", "84484"], lab: ["80061"], radiology: ["93306"], pharmacy: ["RX117", "RX115"] },
    { er: 1, erExtra: ["84484", "93000"],
      inpatient: { weight: 2, los: [2, 5], main: ["93458"], extra: ["93000", "84484", "80048", "85610", "J1644", "J2250"] } }),
  dx(["K80.20", "Calculus of gallbladder without cholecystitis without obstruction", 1, "General Surgery", 20, 80],
    { office: ["85025"], lab: ["80053"], radiology: ["76705", "76700"], pharmacy: ["RX101"] },
    { inpatient: { weight: 2, los: [1, 3], main: ["47562", "00790"], extra: ["85025", "80053", "J0690", "J7030"], package: true } }),
  dx(["S93.401A", "Sprain of unspecified ligament of right ankle, initial encounter", 2, ORTHO, 5, 70],
    { office: ["73610", "29540", "J1885"], radiology: ["73721"], pharmacy: ["RX103", "RX104", "RX136"] },
    { er: 2 }),
  dx(["F41.9", "Anxiety disorder, unspecified", 1.5, "Psychiatry", 18, MAX], { lab: ["84443"], pharmacy: ["RX135"] }),
  dx(["G43.909", "Migraine, unspecified, not intractable, without status migrainosus", 2, "Neurology", 12, 70],
    { office: ["96372", "J1885", "J2405"], radiology: ["70551"], pharmacy: ["RX134", "RX103"] },
    { er: 1 }),
  dx(["J01.00", "Acute maxillary sinusitis, unspecified", 2, ENT, 5, MAX],
    { radiology: ["70486"], pharmacy: ["RX107", "RX106", "RX141", "RX142"] }),
  dx(["J30.9", "Allergic rhinitis, unspecified", 2, ENT, 3, MAX],
    { lab: ["86003"], pharmacy: ["RX109", "RX143", "RX141"] }),
];

/** the services a setting draws on for a diagnosis, before the fallback */
export function poolOf(d: Diagnosis, setting: Setting): readonly string[] {
  if (setting === "office" || setting === "opd") return d.office;
  if (setting === "er") return [...(d.erExtra ?? []), ...d.office];
  if (setting === "inpatient") return d.inpatient?.extra ?? [];
  return d[setting];
}

/** how often a diagnosis is the reason for a claim in a setting, for a member's sex and age; 0 never */
export function diagnosisWeight(d: Diagnosis, setting: Setting, sex: number, age: number): number {
  if (!fits(d, sex, age)) return 0;
  if (setting === "office" || setting === "opd") return d.inpatientOnly === true ? 0 : d.weight;
  if (setting === "er") return d.er ?? 0;
  if (setting === "inpatient") return d.inpatient?.weight ?? 0;
  return poolOf(d, setting).some((code) => fits(service(code), sex, age)) ? d.weight : 0;
}

// every code named is in the catalogue
for (const d of DIAGNOSES) {
  const named = [...d.office, ...d.lab, ...d.radiology, ...d.pharmacy, ...(d.erExtra ?? [])];
  for (const code of [...named, ...(d.inpatient?.main ?? []), ...(d.inpatient?.extra ?? [])]) service(code);
}
