/**
 * The services of the synthetic batches, with list prices (SAR per unit). Procedure, visit, laboratory and
 * imaging codes are CPT-style five-digit numbers, injectables HCPCS Level II J-codes; oral and topical drugs
 * carry synthetic formulary codes (RX + 3 digits), as no public code system numbers packs. Descriptions are
 * short paraphrases.
 *
 * Services are split by where they are done so that a clean batch holds no accidental near-duplicates:
 * office tests (clinic, hospital) and reference-laboratory tests are different codes, drugs are dispensed
 * by pharmacies only (injectables are given in the office), imaging is x-ray in the office and ultrasound,
 * CT and MRI at radiology centres (the emergency room and wards may order any).
 */

export type Sex = "MALE" | "FEMALE";
export type ServiceKind = "visit" | "procedure" | "lab" | "imaging" | "drug";

export interface Service {
  code: string;
  description: string;
  /** list price per unit, SAR */
  price: number;
  kind: ServiceKind;
  nphiesType: "CONSULTATION" | "AMBULATORY" | "PHARMACEUTICAL";
  /** the usual quantity range (inclusive); the lower bound is the most frequent */
  qty: readonly [number, number];
  sex?: Sex;
  minAge: number;
  maxAge: number;
  /** dosing frequency of a drug (spec "Item frequency" values) */
  frequency?: string;
  /** high-cost: claims holding it usually carry a pre-authorization */
  preAuth: boolean;
}

type ServiceOptions = Partial<Pick<Service, "qty" | "sex" | "minAge" | "maxAge" | "frequency" | "preAuth">>;
type ServiceRow = readonly [string, string, number, ServiceKind, ServiceOptions?];

const CHILD = { maxAge: 11 } as const;
const ADULT = { minAge: 12 } as const;

// biome-ignore format: one service per line keeps the table scannable
const SERVICE_ROWS: readonly ServiceRow[] = [
  // visits: office (established, new), preventive by age, emergency, inpatient
  ["99212", "Office visit, established patient, straightforward", 150, "visit"],
  ["99213", "Office visit, established patient, low complexity", 190, "visit"],
  ["99214", "Office visit, established patient, moderate complexity", 260, "visit"],
  ["99215", "Office visit, established patient, high complexity", 340, "visit"],
  ["99203", "Office visit, new patient, low complexity", 230, "visit"],
  ["99391", "Periodic preventive visit, infant", 220, "visit", { minAge: 0, maxAge: 0 }],
  ["99392", "Periodic preventive visit, age 1-4", 220, "visit", { minAge: 1, maxAge: 4 }],
  ["99393", "Periodic preventive visit, age 5-11", 230, "visit", { minAge: 5, maxAge: 11 }],
  ["99394", "Periodic preventive visit, age 12-17", 240, "visit", { minAge: 12, maxAge: 17 }],
  ["99395", "Periodic preventive visit, age 18-39", 280, "visit", { minAge: 18, maxAge: 39 }],
  ["99396", "Periodic preventive visit, age 40-64", 300, "visit", { minAge: 40, maxAge: 64 }],
  ["99397", "Periodic preventive visit, age 65 and over", 320, "visit", { minAge: 65 }],
  ["99283", "Emergency department visit, moderate severity", 350, "visit"],
  ["99284", "Emergency department visit, high severity", 550, "visit"],
  ["99285", "Emergency department visit, high severity with threat to life", 900, "visit"],
  ["99222", "Initial hospital inpatient care, moderate complexity", 450, "visit"],
  ["99232", "Subsequent hospital inpatient care, per day", 300, "visit", { qty: [1, 1] }],
  ["99238", "Hospital discharge day management", 250, "visit"],
  // office tests and procedures (clinic, hospital)
  ["85025", "Complete blood count with automated differential", 60, "lab"],
  ["86140", "C-reactive protein", 65, "lab"],
  ["81002", "Urinalysis by dipstick, non-automated, without microscopy", 30, "lab"],
  ["82962", "Glucose, blood, by glucose monitoring device", 25, "lab"],
  ["87880", "Streptococcus group A antigen, rapid immunoassay", 75, "lab"],
  ["87804", "Influenza antigen, rapid immunoassay", 90, "lab"],
  ["83013", "Helicobacter pylori breath test analysis", 250, "lab"],
  ["87210", "Smear with interpretation, wet mount for infectious agents", 60, "lab"],
  ["81025", "Urine pregnancy test, visual color comparison", 30, "lab", { sex: "FEMALE", minAge: 12, maxAge: 55 }],
  ["82247", "Bilirubin, total", 40, "lab"],
  ["82248", "Bilirubin, direct", 40, "lab"],
  ["80048", "Basic metabolic panel", 90, "lab"],
  ["84484", "Troponin, quantitative", 180, "lab"],
  ["85610", "Prothrombin time", 50, "lab"],
  ["87040", "Blood culture for bacteria", 160, "lab"],
  ["93000", "Electrocardiogram, 12 leads, with interpretation and report", 120, "procedure"],
  ["94640", "Nebulizer treatment, inhaled medication", 85, "procedure", { qty: [1, 3] }],
  ["96372", "Therapeutic injection, subcutaneous or intramuscular", 60, "procedure"],
  ["96374", "Intravenous push, single drug", 90, "procedure"],
  ["96360", "Intravenous infusion, hydration, initial hour", 150, "procedure"],
  ["29540", "Strapping, ankle and/or foot", 120, "procedure"],
  ["20610", "Arthrocentesis or injection, major joint", 450, "procedure"],
  ["71046", "Radiologic examination, chest, 2 views", 250, "imaging"],
  ["72100", "Radiologic examination, spine, lumbosacral, 2 or 3 views", 300, "imaging"],
  ["72040", "Radiologic examination, spine, cervical, 2 or 3 views", 280, "imaging"],
  ["73610", "Radiologic examination, ankle, complete", 280, "imaging"],
  ["73562", "Radiologic examination, knee, 3 views", 290, "imaging"],
  ["70450", "CT head or brain without contrast", 950, "imaging", { preAuth: true }],
  // inpatient procedures
  ["44970", "Laparoscopic appendectomy", 7500, "procedure", { preAuth: true }],
  ["47562", "Laparoscopic cholecystectomy", 9000, "procedure", { preAuth: true }],
  ["59409", "Vaginal delivery only", 4500, "procedure", { sex: "FEMALE", minAge: 12, maxAge: 55, preAuth: true }],
  ["93458", "Left heart catheterization with coronary angiography", 9500, "procedure", { preAuth: true }],
  ["00840", "Anesthesia for intraperitoneal procedures in lower abdomen", 1500, "procedure"],
  ["00790", "Anesthesia for intraperitoneal procedures in upper abdomen", 1600, "procedure"],
  ["01967", "Neuraxial labor analgesia for planned vaginal delivery", 1400, "procedure", { sex: "FEMALE", minAge: 12, maxAge: 55 }],
  // reference laboratory
  ["36415", "Collection of venous blood by venipuncture", 20, "procedure"],
  ["80053", "Comprehensive metabolic panel", 150, "lab"],
  ["80061", "Lipid panel", 120, "lab"],
  ["83036", "Hemoglobin, glycosylated (A1C)", 110, "lab"],
  ["84443", "Thyroid stimulating hormone (TSH)", 95, "lab"],
  ["84439", "Thyroxine, free", 85, "lab"],
  ["82306", "Vitamin D, 25 hydroxy", 180, "lab"],
  ["82728", "Ferritin", 90, "lab"],
  ["83540", "Iron", 55, "lab"],
  ["83550", "Iron binding capacity", 60, "lab"],
  ["87086", "Culture, bacterial, quantitative colony count, urine", 110, "lab"],
  ["81001", "Urinalysis, automated, with microscopy", 35, "lab"],
  ["84153", "Prostate specific antigen, total", 140, "lab", { sex: "MALE", minAge: 18 }],
  ["82043", "Albumin, urine, microalbumin, quantitative", 80, "lab"],
  ["82565", "Creatinine, blood", 40, "lab"],
  ["85652", "Sedimentation rate, erythrocyte, automated", 35, "lab"],
  ["86431", "Rheumatoid factor, quantitative", 80, "lab"],
  ["87045", "Culture, bacterial, stool", 150, "lab"],
  ["87177", "Ova and parasites, direct smears, concentration and identification", 70, "lab"],
  ["86677", "Antibody, Helicobacter pylori", 90, "lab"],
  ["87070", "Culture, bacterial, any other source except urine, blood or stool", 120, "lab"],
  ["80055", "Obstetric panel", 250, "lab", { sex: "FEMALE", minAge: 12, maxAge: 55 }],
  ["82951", "Glucose tolerance test, 3 specimens", 120, "lab"],
  ["86003", "Allergen specific IgE, quantitative, each allergen", 45, "lab", { qty: [5, 12] }],
  // radiology centres
  ["76700", "Ultrasound, abdominal, complete", 450, "imaging"],
  ["76705", "Ultrasound, abdominal, limited", 350, "imaging"],
  ["76770", "Ultrasound, retroperitoneal, complete", 400, "imaging"],
  ["76536", "Ultrasound, soft tissues of head and neck", 380, "imaging"],
  ["76604", "Ultrasound, chest, including mediastinum", 350, "imaging"],
  ["76882", "Ultrasound, extremity, non-vascular, limited", 300, "imaging"],
  ["76775", "Ultrasound, retroperitoneal, limited", 300, "imaging"],
  ["76856", "Ultrasound, pelvic, gynecological, complete", 400, "imaging", { sex: "FEMALE" }],
  ["76805", "Ultrasound, pregnant uterus, after first trimester", 500, "imaging", { sex: "FEMALE", minAge: 12, maxAge: 55 }],
  ["74177", "CT abdomen and pelvis with contrast", 1800, "imaging", { preAuth: true }],
  ["70486", "CT maxillofacial area without contrast", 900, "imaging", { preAuth: true }],
  ["72148", "MRI lumbar spine without contrast", 1900, "imaging", { preAuth: true }],
  ["72141", "MRI cervical spine without contrast", 1900, "imaging", { preAuth: true }],
  ["73721", "MRI lower extremity joint without contrast", 1800, "imaging", { preAuth: true }],
  ["70551", "MRI brain without contrast", 2000, "imaging", { preAuth: true }],
  ["77080", "Dual-energy X-ray absorptiometry (DXA), axial skeleton", 400, "imaging", { minAge: 50 }],
  ["77067", "Screening mammography, bilateral", 450, "imaging", { sex: "FEMALE", minAge: 40 }],
  ["93306", "Echocardiography, transthoracic, complete", 900, "imaging", { preAuth: true }],
  // injectables given in the office (per HCPCS unit)
  ["J1885", "Injection, ketorolac tromethamine, per 15 mg", 25, "drug", { qty: [2, 2], ...ADULT }],
  ["J1100", "Injection, dexamethasone sodium phosphate, 1 mg", 15, "drug", { qty: [4, 8] }],
  ["J0696", "Injection, ceftriaxone sodium, per 250 mg", 35, "drug", { qty: [4, 4] }],
  ["J2405", "Injection, ondansetron hydrochloride, per 1 mg", 20, "drug", { qty: [4, 4] }],
  ["J7030", "Infusion, normal saline solution, 1000 cc", 30, "drug", { qty: [1, 2] }],
  ["J7613", "Albuterol, inhalation solution, unit dose, 1 mg", 10, "drug", { qty: [2, 3] }],
  ["J3301", "Injection, triamcinolone acetonide, per 10 mg", 30, "drug", { qty: [4, 4] }],
  ["J0690", "Injection, cefazolin sodium, 500 mg", 25, "drug", { qty: [2, 2] }],
  ["J1644", "Injection, heparin sodium, per 1000 units", 10, "drug", { qty: [5, 5] }],
  ["J2250", "Injection, midazolam hydrochloride, per 1 mg", 10, "drug", { qty: [2, 2] }],
  // pharmacy (per pack)
  ["RX101", "Paracetamol 500 mg tablets, pack of 24", 8, "drug", { ...ADULT, frequency: "QID" }],
  ["RX102", "Paracetamol 120 mg/5 ml syrup, 100 ml", 10, "drug", { ...CHILD, frequency: "Q6H" }],
  ["RX103", "Ibuprofen 400 mg tablets, pack of 30", 14, "drug", { ...ADULT, frequency: "TID" }],
  ["RX104", "Ibuprofen 100 mg/5 ml suspension, 100 ml", 15, "drug", { minAge: 1, maxAge: 11, frequency: "TID" }],
  ["RX105", "Amoxicillin 500 mg capsules, pack of 21", 22, "drug", { ...ADULT, frequency: "TID" }],
  ["RX106", "Amoxicillin 250 mg/5 ml suspension, 100 ml", 18, "drug", { ...CHILD, frequency: "TID" }],
  ["RX107", "Amoxicillin-clavulanate 1 g tablets, pack of 14", 65, "drug", { ...ADULT, frequency: "BID" }],
  ["RX108", "Azithromycin 500 mg tablets, pack of 3", 38, "drug", { ...ADULT, frequency: "OD" }],
  ["RX109", "Cetirizine 10 mg tablets, pack of 20", 18, "drug", { ...ADULT, frequency: "OD" }],
  ["RX110", "Omeprazole 20 mg capsules, pack of 28", 35, "drug", { ...ADULT, frequency: "OD" }],
  ["RX111", "Pantoprazole 40 mg tablets, pack of 28", 55, "drug", { ...ADULT, frequency: "OD" }],
  ["RX112", "Metformin 850 mg tablets, pack of 60", 25, "drug", { ...ADULT, frequency: "BID" }],
  ["RX113", "Gliclazide MR 60 mg tablets, pack of 30", 45, "drug", { ...ADULT, frequency: "OD" }],
  ["RX114", "Insulin glargine 100 units/ml prefilled pens, pack of 5", 290, "drug", { ...ADULT, frequency: "OD" }],
  ["RX115", "Amlodipine 5 mg tablets, pack of 30", 30, "drug", { ...ADULT, frequency: "OD" }],
  ["RX116", "Valsartan 160 mg tablets, pack of 28", 95, "drug", { ...ADULT, frequency: "OD" }],
  ["RX117", "Atorvastatin 20 mg tablets, pack of 30", 85, "drug", { ...ADULT, frequency: "OD" }],
  ["RX118", "Rosuvastatin 10 mg tablets, pack of 28", 110, "drug", { ...ADULT, frequency: "OD" }],
  ["RX119", "Levothyroxine 100 mcg tablets, pack of 50", 25, "drug", { ...ADULT, frequency: "OD" }],
  ["RX120", "Ferrous sulfate 200 mg tablets, pack of 30", 15, "drug", { ...ADULT, frequency: "OD" }],
  ["RX121", "Cholecalciferol 50,000 IU capsules, pack of 4", 40, "drug", { ...ADULT, frequency: "QM" }],
  ["RX122", "Salbutamol 100 mcg inhaler, 200 doses", 25, "drug", { minAge: 3, frequency: "QID" }],
  ["RX123", "Budesonide-formoterol 160/4.5 mcg inhaler, 120 doses", 160, "drug", { minAge: 12, frequency: "BID" }],
  ["RX124", "Nitrofurantoin 100 mg capsules, pack of 14", 30, "drug", { ...ADULT, frequency: "BID" }],
  ["RX125", "Ciprofloxacin 500 mg tablets, pack of 10", 35, "drug", { minAge: 18, frequency: "BID" }],
  ["RX126", "Oral rehydration salts, pack of 10 sachets", 12, "drug", { frequency: "QID" }],
  ["RX127", "Hydrocortisone 1% cream, 15 g", 12, "drug", { frequency: "BID" }],
  ["RX128", "Fusidic acid 2% cream, 15 g", 20, "drug", { frequency: "TID" }],
  ["RX129", "Adapalene 0.1% gel, 30 g", 60, "drug", { minAge: 12, frequency: "OD" }],
  ["RX130", "Tamsulosin 0.4 mg capsules, pack of 30", 70, "drug", { sex: "MALE", minAge: 18, frequency: "OD" }],
  ["RX131", "Metronidazole 500 mg tablets, pack of 20", 15, "drug", { ...ADULT, frequency: "TID" }],
  ["RX132", "Clotrimazole 100 mg vaginal tablets, pack of 6", 25, "drug", { sex: "FEMALE", minAge: 12, frequency: "OD" }],
  ["RX133", "Mefenamic acid 500 mg tablets, pack of 20", 18, "drug", { ...ADULT, frequency: "TID" }],
  ["RX134", "Sumatriptan 50 mg tablets, pack of 6", 75, "drug", { minAge: 12, frequency: "QD" }],
  ["RX135", "Escitalopram 10 mg tablets, pack of 28", 95, "drug", { minAge: 18, frequency: "OD" }],
  ["RX136", "Diclofenac 1% gel, 50 g", 25, "drug", { minAge: 12, frequency: "TID" }],
  ["RX138", "Chloramphenicol 0.5% eye drops, 10 ml", 12, "drug", { frequency: "QID" }],
  ["RX139", "Folic acid 5 mg tablets, pack of 30", 8, "drug", { ...ADULT, frequency: "OD" }],
  ["RX140", "Prenatal multivitamin tablets, pack of 30", 60, "drug", { sex: "FEMALE", minAge: 12, maxAge: 55, frequency: "OD" }],
  ["RX141", "Xylometazoline 0.1% nasal spray, 10 ml", 12, "drug", { ...ADULT, frequency: "BID" }],
  ["RX142", "Sodium chloride 0.9% nasal drops, 15 ml", 8, "drug", { ...CHILD, frequency: "QID" }],
  ["RX143", "Cetirizine 5 mg/5 ml syrup, 75 ml", 15, "drug", { minAge: 2, maxAge: 11, frequency: "OD" }],
  ["RX145", "Ondansetron 4 mg orally disintegrating tablets, pack of 10", 45, "drug", { ...ADULT, frequency: "Q8H" }],
  ["RX146", "Blood glucose test strips, pack of 50", 90, "drug", { ...ADULT, frequency: "BID" }],
  ["RX147", "Multivitamin syrup for children, 100 ml", 25, "drug", { ...CHILD, frequency: "OD" }],
  ["RX148", "Multivitamin tablets, pack of 30", 30, "drug", { ...ADULT, frequency: "OD" }],
];

export const SERVICES: ReadonlyMap<string, Service> = new Map(
  SERVICE_ROWS.map(([code, description, price, kind, options = {}]) => [
    code,
    {
      code,
      description,
      price,
      kind,
      nphiesType: kind === "visit" ? "CONSULTATION" : kind === "drug" ? "PHARMACEUTICAL" : "AMBULATORY",
      qty: options.qty ?? [1, 1],
      minAge: options.minAge ?? 0,
      maxAge: options.maxAge ?? 200,
      preAuth: options.preAuth ?? false,
      ...(options.sex === undefined ? {} : { sex: options.sex }),
      ...(options.frequency === undefined ? {} : { frequency: options.frequency }),
    },
  ]),
);

export const OFFICE_VISITS = ["99212", "99213", "99214", "99215", "99203"] as const;
export const OFFICE_VISIT_WEIGHTS = [0.18, 0.42, 0.27, 0.06, 0.07] as const;
export const ER_VISITS = ["99283", "99284", "99285"] as const;
export const ER_VISIT_WEIGHTS = [0.45, 0.4, 0.15] as const;
/** preventive visit by age: 0, 1-4, 5-11, 12-17, 18-39, 40-64, 65+ */
export function preventiveVisit(age: number): string {
  if (age < 1) return "99391";
  if (age < 5) return "99392";
  if (age < 12) return "99393";
  if (age < 18) return "99394";
  if (age < 40) return "99395";
  return age < 65 ? "99396" : "99397";
}

/** what fills a claim once its diagnosis' own services run out (sex- and age-neutral, or filtered) */
export const FALLBACK = {
  office: ["85025", "86140", "81002", "82962"],
  er: ["96374", "96360", "J7030", "85025", "80048", "93000"],
  inpatient: ["85025", "80048", "85610", "96374", "J7030"],
  lab: ["80053", "85652", "82565", "81001", "84443", "82306"],
  radiology: ["76700", "76770", "76536", "76604", "76882", "76775"],
  pharmacy: ["RX101", "RX102", "RX126", "RX127", "RX121", "RX147", "RX148"],
} as const;

export function service(code: string): Service {
  const found = SERVICES.get(code);
  if (found === undefined) throw new Error(`service ${code} is not in the catalogue`);
  return found;
}

/** whether a service or diagnosis fits a member; sex 0 male, 1 female */
export const fits = (s: Pick<Service, "sex" | "minAge" | "maxAge">, sex: number, age: number): boolean =>
  (s.sex === undefined || s.sex === (sex === 0 ? "MALE" : "FEMALE")) && age >= s.minAge && age <= s.maxAge;

// every code named is in the catalogue
for (const code of [...OFFICE_VISITS, ...ER_VISITS, ...Object.values(FALLBACK).flat()]) service(code);
