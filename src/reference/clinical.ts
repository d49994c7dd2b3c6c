/**
 * Built-in clinical facts for the prior-authorization engine, written from ICD-10's public chapter and block
 * structure and from the public layout of CPT-style procedure numbers; no data files. They are deliberately
 * coarse and conservative: a range is listed only when every code in it is specific to one sex or age band.
 * An insurer who needs more loads its own edit tables, and those take precedence for the codes they name.
 *
 * Diagnosis codes are compared without the dot, upper case. A range "N70-N98" holds every code whose first
 * three characters fall between the bounds; "K52.2" holds K522 and its children. ASCII order puts digits before
 * letters, which matches ICD-10's own order (O99 < O9A, Z39 < Z3A).
 */

export type Sex = "MALE" | "FEMALE";

/** a sorted, non-overlapping table of ICD-10 ranges; lookups are a binary search */
export interface RangeTable {
  /** the matching range as written ("O00-O9A"), or undefined */
  find(code: string): string | undefined;
}

interface CodeRange {
  lo: string;
  hi: string;
  text: string;
}

const bare = (code: string): string => code.trim().toUpperCase().replaceAll(".", "");

/** a table from a space-separated list of ranges ("O00-O9A Z32-Z37 K52.2"); throws when two overlap */
export function rangeTable(spec: string): RangeTable {
  const ranges: CodeRange[] = spec
    .trim()
    .split(/\s+/)
    .map((text) => {
      const [lo = "", hi = lo] = text.split("-");
      return { lo: bare(lo), hi: bare(hi), text };
    })
    .sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
  for (let i = 1; i < ranges.length; i += 1) {
    const [prev, next] = [ranges[i - 1] as CodeRange, ranges[i] as CodeRange];
    if (next.lo.slice(0, prev.hi.length) <= prev.hi)
      throw new Error(`overlapping ranges ${prev.text} ${next.text}`);
  }
  return {
    find(code: string): string | undefined {
      const c = bare(code);
      // the last range starting at or before the code is the only one that can hold it
      let low = 0;
      let high = ranges.length - 1;
      let found = -1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        if ((ranges[mid] as CodeRange).lo <= c) {
          found = mid;
          low = mid + 1;
        } else high = mid - 1;
      }
      const range = ranges[found];
      return range !== undefined && c.slice(0, range.hi.length) <= range.hi ? range.text : undefined;
    },
  };
}

// --- diagnoses limited to one sex -------------------------------------------------------------------------

/** pregnancy, female genital organs and their tumours, gynaecological encounters; Z38 (liveborn) is left out */
const FEMALE_DX = rangeTable(
  "A34 C51-C58 C79.6 D06 D07.0-D07.3 D25-D28 D39 E28 F53 N70-N98 O00-O9A Q50-Q52 R87 Z01.4 Z12.4 Z32-Z37 Z39 Z3A Z87.5",
);
/** male genital organs and their tumours, PSA, mumps orchitis, routine circumcision */
const MALE_DX = rangeTable("B26.0 C60-C63 D07.4-D07.6 D29 D40 E29 N40-N53 Q53-Q55 R86 R97.2 Z12.5 Z41.2");

// --- diagnoses limited to an age band (years, inclusive) --------------------------------------------------

interface AgeBand {
  table: RangeTable;
  minAge: number;
  maxAge: number;
  label: string;
}

/*
 * Perinatal conditions (chapter P) are coded for the newborn. ICD-10-CM lets a chapter P code follow a patient
 * whose perinatal condition persists; payers still treat it as newborn-only, and so does this table: a later
 * use is for the reviewer (or a tenant edit) to accept.
 */
const AGE_BANDS: readonly AgeBand[] = [
  {
    table: rangeTable("A33 E84.11 P00-P96 Z00.11 Z38"),
    minAge: 0,
    maxAge: 0,
    label: "newborn",
  },
  { table: rangeTable("O00-O9A Z33-Z37 Z39 Z3A"), minAge: 12, maxAge: 55, label: "maternity" },
  {
    table: rangeTable("B08.2 E30.1 L21.1 L70.4 R62.0 R62.5 R68.1 Z00.12 Z00.2 Z00.3 Z68.5 Z76.2"),
    minAge: 0,
    maxAge: 17,
    label: "pediatric",
  },
  {
    table: rangeTable("F03 G30.1 H25 K31.1 M81.0 N40 R54 Z00.00 Z00.01 Z68.1-Z68.4"),
    minAge: 15,
    maxAge: 124,
    label: "adult",
  },
];

export interface DiagnosisFacts {
  sex?: Sex;
  minAge?: number;
  maxAge?: number;
  /** why, for the reason's message: "female-only range N70-N98", "maternity range O00-O9A (age 12-55)" */
  sexBasis?: string;
  ageBasis?: string;
}

/** what the built-in tables say about one diagnosis code; {} when it is neither sex- nor age-specific */
export function diagnosisFacts(code: string): DiagnosisFacts {
  const facts: DiagnosisFacts = {};
  const female = FEMALE_DX.find(code);
  const male = female === undefined ? MALE_DX.find(code) : undefined;
  if (female !== undefined) Object.assign(facts, { sex: "FEMALE", sexBasis: `female-only range ${female}` });
  if (male !== undefined) Object.assign(facts, { sex: "MALE", sexBasis: `male-only range ${male}` });
  for (const band of AGE_BANDS) {
    const range = band.table.find(code);
    if (range === undefined) continue;
    return { ...facts, minAge: band.minAge, maxAge: band.maxAge, ageBasis: `${band.label} range ${range}` };
  }
  return facts;
}

// --- diagnoses that justify a kind of service ----------------------------------------------------------------

/** teeth, mouth and jaws; dental examinations, prostheses, orthodontic devices; clefts */
const DENTAL_DX = rangeTable(
  "K00-K14 M26-M27 Q35-Q37 S02.5 S02.6 S03.2 Z01.2 Z46.3 Z46.4 Z91.84 Z97.2 Z98.81",
);
/** the eye chapter, eye injuries and tumours, diabetes with eye complications, eye examinations and aids */
const EYE_DX = rangeTable(
  "A71 B30 C69 D31 E08.3 E09.3 E10.3 E11.3 E12.3 E13.3 E14.3 H00-H59 Q10-Q15 S05 T15 T26 Z01.0 Z13.5 Z44.2 Z46.0 Z96.1 Z97.3",
);
/** malnutrition, malabsorption, food intolerance and allergy, inborn errors of metabolism, failure to thrive */
const FEEDING_DX = rangeTable(
  "E40-E46 E64.0 E70-E74 E84 K52.2 K90 K91.2 P05 P07 P92 R62 R63.3 T78.1 Z00.1 Z91.01",
);
/** pregnancy, childbirth and the puerperium, and the pregnancy encounters of chapter Z */
const MATERNITY_DX = rangeTable("O00-O9A Z32-Z37 Z39 Z3A");

export const isDentalDiagnosis = (code: string): boolean => DENTAL_DX.find(code) !== undefined;
export const isEyeDiagnosis = (code: string): boolean => EYE_DX.find(code) !== undefined;
export const isFeedingDiagnosis = (code: string): boolean => FEEDING_DX.find(code) !== undefined;
export const isMaternityDiagnosis = (code: string): boolean => MATERNITY_DX.find(code) !== undefined;

// --- services limited to one sex or age band ------------------------------------------------------------

export interface ServiceFact {
  sex?: Sex;
  minAge?: number;
  maxAge?: number;
  /** a pregnancy or delivery service: it needs a maternity diagnosis or the maternity flag */
  maternity?: boolean;
  /** why, for the reason's message: "code 59400 (maternity care 59000-59899)", "description \"cesarean\"" */
  basis: string;
}

type Fact = Omit<ServiceFact, "basis">;

const FEMALE: Fact = { sex: "FEMALE" };
const MALE: Fact = { sex: "MALE" };
const MATERNITY: Fact = { sex: "FEMALE", maternity: true, minAge: 12, maxAge: 55 };
const ages = (minAge: number, maxAge: number): Fact => ({ minAge, maxAge });

/*
 * Five-digit procedure numbers laid out as CPT lays them out. Only a code that is exactly five digits is looked
 * up: SBS codes (ACHI-based, "35653-04-00") number procedures differently and are judged by their description.
 * Diagnostic mammography (77065-77066) is left out on purpose: men have it too (gynaecomastia, male breast
 * cancer); screening mammography (77067) is for women.
 */
// biome-ignore format: one range per line keeps the table scannable
const SERVICE_RANGES: readonly (readonly [number, number, Fact, string])[] = [
  [54000, 55899, MALE, "male genital system"],
  [56405, 58999, FEMALE, "female genital system"],
  [59000, 59899, MATERNITY, "maternity care and delivery"],
  [76801, 76828, MATERNITY, "obstetric and fetal ultrasound"],
  [76830, 76831, FEMALE, "transvaginal ultrasound"],
  [77067, 77067, FEMALE, "screening mammography"],
  [84152, 84154, MALE, "prostate-specific antigen"],
  [88141, 88155, FEMALE, "cervical or vaginal cytology"],
  [88164, 88167, FEMALE, "cervical or vaginal cytology"],
  [88174, 88175, FEMALE, "cervical or vaginal cytology"],
  [99381, 99381, ages(0, 0), "preventive visit, infant"],
  [99382, 99382, ages(1, 4), "preventive visit, age 1-4"],
  [99383, 99383, ages(5, 11), "preventive visit, age 5-11"],
  [99384, 99384, ages(12, 17), "preventive visit, age 12-17"],
  [99385, 99385, ages(18, 39), "preventive visit, age 18-39"],
  [99386, 99386, ages(40, 64), "preventive visit, age 40-64"],
  [99387, 99387, ages(65, 124), "preventive visit, age 65+"],
  [99391, 99391, ages(0, 0), "preventive visit, infant"],
  [99392, 99392, ages(1, 4), "preventive visit, age 1-4"],
  [99393, 99393, ages(5, 11), "preventive visit, age 5-11"],
  [99394, 99394, ages(12, 17), "preventive visit, age 12-17"],
  [99395, 99395, ages(18, 39), "preventive visit, age 18-39"],
  [99396, 99396, ages(40, 64), "preventive visit, age 40-64"],
  [99397, 99397, ages(65, 124), "preventive visit, age 65+"],
  [99460, 99463, ages(0, 0), "newborn care"],
  [99468, 99469, ages(0, 0), "neonatal critical care"],
  [99471, 99472, ages(0, 2), "pediatric critical care, 29 days to 24 months"],
  [99475, 99476, ages(2, 5), "pediatric critical care, age 2-5"],
  [99477, 99477, ages(0, 0), "initial care of a neonate"],
];

/*
 * Words in a service description. Circumcision counts as male: CPT files it under the male genital system
 * (54150-54161) and female genital cutting is no covered medical service, so on a female member it is an
 * inconsistency for the reviewer. A pregnancy test is female but not maternity care (it is done before surgery
 * too); "pregnan" otherwise marks maternity care.
 */
// biome-ignore format: one rule per line keeps the table scannable
const SERVICE_WORDS: readonly (readonly [RegExp, Fact])[] = [
  [/pregnan(?!cy tests?\b)|obstetric|c(?:a)?esarean|c-section|antenatal|prenatal|(?:normal|vaginal) delivery/, MATERNITY],
  [/pregnancy test|hysterect|oophorect|myomectom|colposcop|pap (?:smear|test)|screening mammogra|mammogra\w* screening/, FEMALE],
  [/\bvagin|\bvulv|endometri|\bovar(?:y|ian)|\buter(?:us|ine)\b|intrauterine/, FEMALE],
  [/prostat|\bpsa\b|vasectom|\borchi|circumcis|scrot|testic|\bpenile\b|\bpenis\b|semen analysis/, MALE],
  [/newborn|neonat/, ages(0, 0)],
];

function rangeOf(code: string): (typeof SERVICE_RANGES)[number] | undefined {
  if (!/^\d{5}$/.test(code)) return undefined;
  const n = Number(code);
  let low = 0;
  let high = SERVICE_RANGES.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = SERVICE_RANGES[mid] as (typeof SERVICE_RANGES)[number];
    if (n < range[0]) high = mid - 1;
    else if (n > range[1]) low = mid + 1;
    else return range;
  }
  return undefined;
}

/** what the built-in facts say about a service, from its codes and its description; [] when nothing */
export function serviceFacts(serviceCode: string, nphiesCode: string, description: string): ServiceFact[] {
  const facts: ServiceFact[] = [];
  for (const code of serviceCode === nphiesCode ? [serviceCode] : [serviceCode, nphiesCode]) {
    const range = rangeOf(code.trim());
    if (range === undefined) continue;
    const what = range[0] === range[1] ? range[3] : `${range[3]} ${range[0]}-${range[1]}`;
    facts.push({ ...range[2], basis: `code ${code.trim()} (${what})` });
  }
  const text = description.toLowerCase();
  for (const [pattern, fact] of SERVICE_WORDS) {
    const match = pattern.exec(text);
    if (match !== null) facts.push({ ...fact, basis: `description "${match[0]}"` });
  }
  return facts;
}
