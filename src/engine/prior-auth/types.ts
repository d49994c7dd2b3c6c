/**
 * The prior-authorization engine's contract (docs/architecture.md section 4). The engine is pure: `decide(request,
 * context, now)` reads nothing and writes nothing; the service loads the context and stores the result.
 * Money is integer halalas (1 SAR = 100 halalas) throughout; dates are Date objects (UTC).
 */

export type TenantMode = "standard" | "lightweight";
export type Gender = "MALE" | "FEMALE";
export type ClaimType = "INSTITUTIONAL" | "PROFESSIONAL" | "PHARMACY" | "DENTAL" | "OPTICAL";
export type ClaimSubType = "IN_PATIENT" | "OUT_PATIENT" | "EMERGENCY";
export type ServiceType =
  | "AMBULATORY"
  | "CONSULTATION"
  | "PHARMACEUTICAL"
  | "DEVICE"
  | "OPTICAL"
  | "DENTAL"
  | "BABY_FORMULA";
export type Frequency =
  | "OD"
  | "BID"
  | "Q12H"
  | "TID"
  | "Q8H"
  | "QID"
  | "Q6H"
  | "QD"
  | "Q24H"
  | "QOD"
  | "QM"
  | "Q4H";

export interface RequestDiagnosis {
  type: "primary" | "secondary";
  /** ICD-10 without the dot, upper case (E119, O800) */
  code: string;
  name: string | null;
}

export interface RequestItem {
  /** 0-based position in the request */
  index: number;
  serviceCode: string;
  serviceDescription: string;
  nphiesCode: string;
  nphiesType: ServiceType;
  serviceType: ServiceType;
  /** integer >= 1 */
  quantity: number;
  /** claimed amount per unit, halalas */
  unitAmount: number;
  /** free text as sent ("7", "7 days", "2 weeks", "1 month"); null when not sent */
  duration: string | null;
  frequency: Frequency | null;
  admissionDate: Date | null;
  dischargeDate: Date | null;
  benefitCode: number | null;
  subBenefitCode: number | null;
}

export interface EngineRequest {
  transactionType: "PREAUTH" | "CLAIM";
  /** the authorization a request belongs to: a claim names the prior authorization it is billed under */
  authorizationNumber?: string;
  treatmentDate: Date;
  requestDate: Date;
  claimType: ClaimType;
  claimSubType: ClaimSubType;
  isEmergency: boolean;
  isMaternity: boolean;
  isNewBorn: boolean;
  providerCchiNo: string;
  diagnoses: RequestDiagnosis[];
  items: RequestItem[];
}

export interface MemberFacts {
  gender: Gender;
  dateOfBirth: Date;
}

/** limits in halalas; utilization is what earlier requests already used (approved amounts) */
export interface BenefitLimits {
  code: number;
  limit: number;
  utilized: number;
  subBenefits: { code: number; limit: number; utilized: number }[];
}

/** standard mode only: the member's coverage under the policy of the request */
export interface Coverage {
  policy: { status: string; startDate: string; endDate: string };
  /** the member's link to the policy; undefined when the member is not on it */
  link: { status: string; startDate: string; endDate: string; categoryCode: string } | undefined;
  /** undefined when the link names no network (then every provider is in network) */
  providerInNetwork: boolean | undefined;
  /** the link's category in the policy's template; undefined when the template lacks it */
  category: { limit: number; utilized: number; benefits: BenefitLimits[] } | undefined;
}

/** a contract price in force for an item at the treatment date (halalas per unit) */
export interface ContractPrice {
  unitPrice: number;
  priceListErpId: string;
  priceItemErpId: string;
}

/** a past claim or request item of the member: loaded history, or the platform's own earlier requests */
export interface HistoryItem {
  date: Date;
  serviceCode: string;
  nphiesCode: string | null;
  serviceType: ServiceType | null;
  quantity: number;
  /** halalas per unit, when known */
  unitAmount: number | null;
  providerCchiNo: string | null;
  diagnosisCodes: string[];
  /** approved (or paid) counts for duplicates and follow-ups; rejected or cancelled ones do not */
  approved: boolean;
  /** where it came from, for the reason's message: a transaction id or a history record id */
  reference: string;
  /** the platform's own requests: the authorization they belong to and their transaction type */
  authorization?: { number: string; transactionType: "PREAUTH" | "CLAIM" };
}

/** the tenant's past approved items of one service code, for the anomaly score (robust statistics) */
export interface PeerStats {
  count: number;
  medianUnitAmount: number;
  /** median absolute deviation of the unit amount, halalas */
  madUnitAmount: number;
  medianQuantity: number;
  madQuantity: number;
}

/** what the tenant configured (defaults in brackets) */
export interface EngineSettings {
  /** an item whose svc_ai_score is at or above this is not approved automatically [0.7] */
  autoApprovalThreshold: number;
  /** days after a consultation in which another one with the same provider is a free follow-up [14] */
  followUpDays: number;
  /** days in which the same service for the member counts as a duplicate of an approved one [30] */
  duplicateWindowDays: number;
}

export interface EngineContext {
  mode: TenantMode;
  member: MemberFacts;
  /** standard mode: always set; lightweight: undefined (no eligibility, network or limit checks) */
  coverage: Coverage | undefined;
  /** per item index: the contract price, or undefined when the provider has none for it */
  prices: (ContractPrice | undefined)[];
  history: HistoryItem[];
  /** by service code */
  peers: Map<string, PeerStats>;
  /** how often each diagnosis and service code were seen together in the tenant's history, key `${dx}|${service}` */
  pairCounts: Map<string, number>;
  /** how many requests the tenant has seen, to judge rarity against */
  pairTotal: number;
  /** the member's requests in the 30 days before the treatment date, and from how many providers */
  memberActivity: { requests: number; providers: number };
  /**
   * Diagnosis edits the tenant loaded (CMS MCE style), by code without the dot; for the codes they name
   * they take precedence over the built-in clinical facts. Empty when none are loaded.
   */
  diagnosisEdits: Map<string, DiagnosisEdit>;
  settings: EngineSettings;
}

/** one code's edits: the sex it is limited to and the age band (years, inclusive) it is valid in */
export interface DiagnosisEdit {
  sex?: Gender;
  minAge?: number;
  maxAge?: number;
  /** Maternity_Only: female and 12-55 */
  maternity?: boolean;
  /** Newborn_Only: age 0 */
  newborn?: boolean;
}

export type ReasonSource = "rules" | "ai";

export interface Reason {
  /** the engine's own code (MZ-…), stable, listed in reasons.ts */
  code: string;
  /** the NPHIES adjudication reason (NDC001-NDC086), or null for an AI alert without one */
  nphiesCode: string | null;
  /** what happened, with the figures: "unit price 420.00 above the contract price 300.00 (list PL-1)" */
  message: string;
  source: ReasonSource;
}

/**
 * approved: all of it; partial: some quantity or amount cut; rejected: nothing approved; pending: the
 * rules would approve (some of) it but the anomaly score holds it for the reviewer (nothing approved yet)
 */
export type ItemOutcome = "APPROVED" | "PARTIALLY_APPROVED" | "REJECTED" | "PENDING_REVIEW";

export interface ItemDecision {
  index: number;
  outcome: ItemOutcome;
  approved: boolean;
  approvedQuantity: number;
  /** days, as text, when the item has a duration; null otherwise */
  approvedDuration: string | null;
  /** unit price used for the approval: the contract price when lower than the claimed one */
  unitPrice: number;
  /** quantity x claimed unit amount */
  requestAmount: number;
  /** request = approved + price rejected + rejected + held, always */
  approvedAmount: number;
  priceRejectedAmount: number;
  rejectedAmount: number;
  /** PENDING_REVIEW only: what the rules would approve, held for the reviewer (0 otherwise) */
  heldAmount: number;
  /** what the payer pays: the approved amount (no deductible is known to the engine) */
  netPayable: number;
  benefitCode: number | null;
  subBenefitCode: number | null;
  reasons: Reason[];
  /** 0..1 */
  aiScore: number;
  /** a one-line alert when the score or a rule raised one, else null */
  aiAlert: string | null;
}

export interface EngineDecision {
  /** request-level alerts (member inconsistency is added by the service, not the engine) */
  requestAlerts: string[];
  items: ItemDecision[];
  /** one sentence summing up: "3 items: 2 approved, 1 rejected; SAR 1,200.00 of 1,500.00 approved" */
  note: string;
}
