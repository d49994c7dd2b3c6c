import type { BulkPatientInput } from "../modules/policy-bulk/schemas.js";

/** The demo's members: Saudi families with names in English and Arabic, the same on every run. */

type Name = readonly [en: string, ar: string];

// biome-ignore format: several names to a line, English beside Arabic
const MALE: readonly Name[] = [
  ["Mohammed", "محمد"], ["Abdullah", "عبدالله"], ["Abdulrahman", "عبدالرحمن"], ["Faisal", "فيصل"],
  ["Khalid", "خالد"], ["Saud", "سعود"], ["Sultan", "سلطان"], ["Fahad", "فهد"], ["Turki", "تركي"],
  ["Nasser", "ناصر"], ["Omar", "عمر"], ["Ahmed", "أحمد"], ["Ibrahim", "إبراهيم"], ["Yousef", "يوسف"],
  ["Majed", "ماجد"], ["Bandar", "بندر"], ["Saleh", "صالح"], ["Hamad", "حمد"], ["Ali", "علي"],
  ["Waleed", "وليد"], ["Nawaf", "نواف"], ["Meshal", "مشعل"], ["Abdulaziz", "عبدالعزيز"], ["Rayan", "ريان"],
];
// biome-ignore format: several names to a line, English beside Arabic
const FEMALE: readonly Name[] = [
  ["Noura", "نورة"], ["Sara", "سارة"], ["Fatimah", "فاطمة"], ["Aisha", "عائشة"], ["Maha", "مها"],
  ["Hind", "هند"], ["Reem", "ريم"], ["Lama", "لمى"], ["Amal", "أمل"], ["Mona", "منى"], ["Hessa", "حصة"],
  ["Latifa", "لطيفة"], ["Nouf", "نوف"], ["Abeer", "عبير"], ["Dalal", "دلال"], ["Jawaher", "جواهر"],
  ["Ghada", "غادة"], ["Maryam", "مريم"], ["Shahad", "شهد"], ["Layan", "ليان"], ["Joud", "جود"],
  ["Rahaf", "رهف"],
];
// biome-ignore format: several names to a line, English beside Arabic
const FAMILY: readonly Name[] = [
  ["Al-Qahtani", "القحطاني"], ["Al-Otaibi", "العتيبي"], ["Al-Ghamdi", "الغامدي"], ["Al-Zahrani", "الزهراني"],
  ["Al-Shehri", "الشهري"], ["Al-Dosari", "الدوسري"], ["Al-Harbi", "الحربي"], ["Al-Mutairi", "المطيري"],
  ["Al-Anazi", "العنزي"], ["Al-Shammari", "الشمري"], ["Al-Subaie", "السبيعي"], ["Al-Malki", "المالكي"],
  ["Al-Juhani", "الجهني"], ["Al-Rashidi", "الرشيدي"], ["Al-Omari", "العمري"], ["Al-Asmari", "الأسمري"],
  ["Al-Qurashi", "القرشي"], ["Al-Sulami", "السلمي"], ["Al-Yami", "اليامي"], ["Al-Tamimi", "التميمي"],
  ["Al-Sahli", "السهلي"], ["Al-Hajri", "الهاجري"],
];

export type Category = "A" | "B" | "C";

export interface DemoMember {
  memberId: string;
  gender: "MALE" | "FEMALE";
  /** YYYY-MM-DD */
  born: string;
  maritalStatus: "SINGLE" | "MARRIED";
  category: Category;
  /** 2026: the active policy; 2025: the expired one */
  policyYear: 2025 | 2026;
  nameEn: string;
  nameAr: string;
  relation: "EMPLOYEE" | "WIFE" | "HUSBAND" | "SON" | "DAUGHTER";
}

export const MEMBER_COUNT = 300;
/** about this many members are on the expired 2025 policy */
const EXPIRED_POLICY_MEMBERS = 40;

/** a small seeded generator (mulberry32): the same members on every machine */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number): number => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
  };
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

/** the members of the named prior authorizations (each keyed by the decision it shows); families follow */
// biome-ignore format: one member to a line
export const CAST = {
  approved: cast("MBR-00001", "MALE", "1984-04-17", "A", 2026, ["Faisal", "فيصل"], ["Al-Otaibi", "العتيبي"]),
  partialPrice: cast("MBR-00002", "FEMALE", "1991-09-02", "B", 2026, ["Noura", "نورة"], ["Al-Shehri", "الشهري"]),
  partialLimit: cast("MBR-00003", "MALE", "1979-01-23", "C", 2026, ["Abdulrahman", "عبدالرحمن"], ["Al-Zahrani", "الزهراني"]),
  clinical: cast("MBR-00004", "MALE", "1988-06-11", "B", 2026, ["Khalid", "خالد"], ["Al-Ghamdi", "الغامدي"]),
  eligibility: cast("MBR-00005", "FEMALE", "1995-12-30", "B", 2025, ["Hind", "هند"], ["Al-Dosari", "الدوسري"]),
  held: cast("MBR-00006", "FEMALE", "1987-03-08", "A", 2026, ["Sara", "سارة"], ["Al-Harbi", "الحربي"]),
} as const;

function cast(
  memberId: string,
  gender: DemoMember["gender"],
  born: string,
  category: Category,
  policyYear: DemoMember["policyYear"],
  first: Name,
  family: Name,
): DemoMember {
  return {
    memberId,
    gender,
    born,
    maritalStatus: "MARRIED",
    category,
    policyYear,
    nameEn: `${first[0]} Abdullah ${family[0]}`,
    nameAr: `${first[1]} عبدالله ${family[1]}`,
    relation: "EMPLOYEE",
  };
}

/** families (an employee, often a spouse, up to four children) until there are MEMBER_COUNT members */
export function demoMembers(): DemoMember[] {
  const random = randomSource(20_260_101);
  const members: DemoMember[] = Object.values(CAST).map((member) => ({ ...member }));
  const day = () => `${pad(random.int(1, 12), 2)}-${pad(random.int(1, 28), 2)}`;
  while (members.length < MEMBER_COUNT) {
    const family = random.pick(FAMILY);
    const employeeMale = random.next() < 0.75;
    const employeeFirst = random.pick(employeeMale ? MALE : FEMALE);
    const father = random.pick(MALE);
    const bornYear = random.int(1968, 2001);
    // the last families are the other holder's staff, on the policy that expired with 2025
    const policyYear = members.length >= MEMBER_COUNT - EXPIRED_POLICY_MEMBERS ? 2025 : 2026;
    const drawn: Category = random.next() < 0.2 ? "A" : random.next() < 0.7 ? "B" : "C";
    const category = policyYear === 2025 ? "B" : drawn;
    const married = bornYear < 1996 && random.next() < 0.85;
    const add = (member: Omit<DemoMember, "memberId" | "category" | "policyYear">) => {
      if (members.length < MEMBER_COUNT)
        members.push({ ...member, memberId: `MBR-${pad(members.length + 1, 5)}`, category, policyYear });
    };
    add({
      gender: employeeMale ? "MALE" : "FEMALE",
      born: `${bornYear}-${day()}`,
      maritalStatus: married ? "MARRIED" : "SINGLE",
      nameEn: `${employeeFirst[0]} ${father[0]} ${family[0]}`,
      nameAr: `${employeeFirst[1]} ${father[1]} ${family[1]}`,
      relation: "EMPLOYEE",
    });
    if (!married) continue;
    // spouses keep their own family names: Saudi women do not take their husbands'
    const spouseFamily = random.pick(FAMILY);
    const spouseFirst = random.pick(employeeMale ? FEMALE : MALE);
    const spouseFather = random.pick(MALE);
    add({
      gender: employeeMale ? "FEMALE" : "MALE",
      born: `${Math.min(2001, bornYear + random.int(-3, 6))}-${day()}`,
      maritalStatus: "MARRIED",
      nameEn: `${spouseFirst[0]} ${spouseFather[0]} ${spouseFamily[0]}`,
      nameAr: `${spouseFirst[1]} ${spouseFather[1]} ${spouseFamily[1]}`,
      relation: employeeMale ? "WIFE" : "HUSBAND",
    });
    const [childFather, childFamily] = employeeMale ? [employeeFirst, family] : [spouseFirst, spouseFamily];
    for (let child = random.int(0, 4); child > 0; child--) {
      const son = random.next() < 0.5;
      const first = random.pick(son ? MALE : FEMALE);
      add({
        gender: son ? "MALE" : "FEMALE",
        born: `${random.int(Math.max(2004, bornYear + 22), 2025)}-${day()}`,
        maritalStatus: "SINGLE",
        nameEn: `${first[0]} ${childFather[0]} ${childFamily[0]}`,
        nameAr: `${first[1]} ${childFather[1]} ${childFamily[1]}`,
        relation: son ? "SON" : "DAUGHTER",
      });
    }
  }
  return members;
}

/** the network of a category: the gold network for category A, silver for the others */
export const networkOf = (category: Category): "GOLD" | "SILVER" => (category === "A" ? "GOLD" : "SILVER");

/** a member as the bulk patient import takes it, covered for its policy's year */
export function patientOf(member: DemoMember, index: number): BulkPatientInput {
  const year = member.policyYear;
  return {
    member_id: member.memberId,
    national_id: `1${pad(104_729_000 + index * 7_919, 9)}`,
    name: `${member.nameEn} / ${member.nameAr}`,
    gender: member.gender,
    marital_status: member.maritalStatus,
    date_of_birth: `${member.born}T00:00:00.000Z`,
    relation: member.relation,
    nationality: "Saudi",
    phone_number: `+9665${pad((index * 7_654_321) % 100_000_000, 8)}`,
    category_code: member.category,
    network_code: networkOf(member.category),
    effective_start_date: `${year}-01-01T00:00:00.000Z`,
    effective_end_date: `${year}-12-31T00:00:00.000Z`,
  };
}
