import { priorAuthRepo } from "../modules/prior-auth/repo.js";
import type { CreateInput } from "../modules/prior-auth/schemas.js";
import { createPriorAuth } from "../modules/prior-auth/service.js";
import type { RequestContext } from "../platform/context.js";
import { contractPrice, POLICIES, PROVIDERS, SERVICES, type ServiceCode } from "./catalogue.js";
import { CAST, type DemoMember, networkOf } from "./people.js";
import type { Tally } from "./tally.js";

/** The demo's prior authorizations: the tenant's history, then one request for each kind of decision. */

type Diagnosis = readonly [code: string, name: string];

const DIABETES: Diagnosis = ["E11.9", "Type 2 diabetes mellitus without complications"];
const PREDIABETES: Diagnosis = ["R73.03", "Prediabetes"];
const SCREENING: Diagnosis = ["Z13.1", "Encounter for screening for diabetes mellitus"];

interface Visit {
  transactionId: string;
  member: DemoMember;
  provider: string;
  /** YYYY-MM-DD, in 2026: every run decides the same */
  date: string;
  diagnosis: Diagnosis;
  /** the claimed unit amount of each service; undefined claims the contract price */
  items: readonly { code: ServiceCode; amount?: number }[];
  doctor: string;
}

/** the median contract price of haemoglobin A1c over the history's providers: the score's peers */
export const USUAL_HBA1C = 90;

/** the requests named for their decisions (docs/operator-contract.md section 14) */
export const DEMO_VISITS: readonly Visit[] = [
  {
    transactionId: "DEMO-APPROVED",
    member: CAST.approved,
    provider: "CCHI-10002",
    date: "2026-03-09",
    diagnosis: DIABETES,
    items: [{ code: "CONS-SPEC" }, { code: "LAB-HBA1C" }, { code: "LAB-LIPID" }],
    doctor: "Dr. Ahmed Al-Faraj",
  },
  {
    transactionId: "DEMO-PARTIAL-PRICE",
    member: CAST.partialPrice,
    provider: "CCHI-10003",
    date: "2026-03-10",
    diagnosis: ["J02.9", "Acute pharyngitis, unspecified"],
    // both billed above the contract: paid at it, the difference price-rejected
    items: [
      { code: "CONS-GP", amount: 250 },
      { code: "LAB-CBC", amount: 75 },
    ],
    doctor: "Dr. Mona Al-Juhani",
  },
  {
    transactionId: "DEMO-PARTIAL-LIMIT",
    member: CAST.partialLimit,
    provider: "CCHI-10004",
    date: "2026-03-11",
    diagnosis: ["M23.2", "Derangement of meniscus due to old tear or injury"],
    // category C's radiology sub-benefit holds SAR 800: the MRI is cut to it
    items: [{ code: "CONS-SPEC" }, { code: "RAD-MRI-KNEE" }],
    doctor: "Dr. Yousef Al-Sahli",
  },
  {
    transactionId: "DEMO-REJECTED-CLINICAL",
    member: CAST.clinical,
    provider: "CCHI-10002",
    date: "2026-03-12",
    // a delivery diagnosis for a male member: the clinical edit rejects every item
    diagnosis: ["O80", "Encounter for full-term uncomplicated delivery"],
    items: [{ code: "CONS-SPEC" }, { code: "RAD-US-ABD" }],
    doctor: "Dr. Latifa Al-Subaie",
  },
  {
    transactionId: "DEMO-REJECTED-ELIGIBILITY",
    member: CAST.eligibility,
    provider: "CCHI-10002",
    date: "2026-03-13",
    // her only policy expired with 2025
    diagnosis: ["J06.9", "Acute upper respiratory infection, unspecified"],
    items: [{ code: "CONS-GP" }],
    doctor: "Dr. Ahmed Al-Faraj",
  },
  {
    transactionId: "DEMO-HELD",
    member: CAST.held,
    provider: "CCHI-10005",
    date: "2026-03-16",
    diagnosis: DIABETES,
    // ten times what the tenant's approved requests paid for the test: the anomaly score holds it
    items: [{ code: "CONS-GP" }, { code: "LAB-HBA1C", amount: 10 * USUAL_HBA1C }],
    doctor: "Dr. Saleh Al-Malki",
  },
];

export const DEMO_TRANSACTION_IDS = DEMO_VISITS.map((visit) => visit.transactionId);

const HISTORY_SIZE = 20;
/** providers of the history: in both networks, their A1c contract prices around USUAL_HBA1C */
const HISTORY_PROVIDERS = [
  "CCHI-10002",
  "CCHI-10003",
  "CCHI-10004",
  "CCHI-10005",
  "CCHI-10006",
  "CCHI-10009",
  "CCHI-10010",
];
const HISTORY_DOCTORS = [
  "Dr. Ahmed Al-Faraj",
  "Dr. Mona Al-Juhani",
  "Dr. Saleh Al-Malki",
  "Dr. Hessa Al-Yami",
];

/** approved A1c tests of adult employees in January and February: the peers of DEMO-HELD's price */
export function historyVisits(members: readonly DemoMember[]): Visit[] {
  const cast = new Set(Object.values(CAST).map((member) => member.memberId));
  const adults = members.filter(
    (m) => m.policyYear === 2026 && m.relation === "EMPLOYEE" && !cast.has(m.memberId),
  );
  return adults.slice(0, HISTORY_SIZE).map((member, i) => ({
    transactionId: `DEMO-HIST-${String(i + 1).padStart(3, "0")}`,
    member,
    provider: HISTORY_PROVIDERS[i % HISTORY_PROVIDERS.length] as string,
    date: `2026-0${1 + Math.floor(i / 10)}-${String(5 + 2 * (i % 10)).padStart(2, "0")}`,
    diagnosis: [DIABETES, PREDIABETES, SCREENING][i % 3] as Diagnosis,
    items: [{ code: "LAB-HBA1C" }],
    doctor: HISTORY_DOCTORS[i % HISTORY_DOCTORS.length] as string,
  }));
}

/** the request of a visit, as a provider's system sends it to /approval-request/create */
export function requestOf(visit: Visit): CreateInput {
  const policy = POLICIES[visit.member.policyYear];
  const provider = PROVIDERS.find((p) => p.cchi_no === visit.provider);
  if (provider === undefined || !provider.networks.includes(networkOf(visit.member.category)))
    throw new Error(`${visit.transactionId}: ${visit.provider} is outside the member's network`);
  return {
    authorization_number: `AUTH-${visit.transactionId.slice(5)}`,
    transaction_id: visit.transactionId,
    transaction_type: "PREAUTH",
    policy_no: policy.policy_no,
    ph_erp_id: policy.ph_erp_id,
    medical_provider_cchi_no: visit.provider,
    member_id: visit.member.memberId,
    member_dob: `${visit.member.born}T00:00:00.000Z`,
    member_gender: visit.member.gender,
    marital_status: visit.member.maritalStatus,
    treatment_date: `${visit.date}T09:30:00.000Z`,
    request_date: `${visit.date}T08:45:00.000Z`,
    claim_type: "PROFESSIONAL",
    claim_sub_type: "OUT_PATIENT",
    diagnoses: [{ type: "primary", code: visit.diagnosis[0], name: visit.diagnosis[1] }],
    doctor_name: visit.doctor,
    items: visit.items.map(({ code, amount }, i) => {
      const service = SERVICES[code];
      return {
        service_code: code,
        service_description: service.description,
        nphies_code: service.nphiesCode,
        nphies_type: service.type,
        service_type: service.type,
        claimed_quantity: 1,
        claimed_amount: amount ?? contractPrice(visit.provider, code),
        erp_item_id: `${visit.transactionId}-${i + 1}`,
        benefit_code: service.benefit,
        ...("subBenefit" in service ? { sub_benefit_code: service.subBenefit } : {}),
      };
    }),
  };
}

/** adjudicates each visit not adjudicated yet, in order: the history first, so its peers exist */
export async function seedPriorAuths(
  ctx: RequestContext,
  tally: Tally,
  members: readonly DemoMember[],
): Promise<void> {
  for (const visit of [...historyVisits(members), ...DEMO_VISITS]) {
    // checked first: a request already there would otherwise run the engine only to be refused
    if ((await priorAuthRepo.find(ctx.db, ctx.tenantId, visit.transactionId)) !== undefined) {
      tally.count("prior authorizations", 0, 1);
      continue;
    }
    await tally.ensure("prior authorizations", () => createPriorAuth(ctx, requestOf(visit)));
  }
}
