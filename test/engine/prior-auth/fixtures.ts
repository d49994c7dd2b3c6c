/**
 * Builders for the prior-authorization engine's inputs. The defaults describe a plain standard-mode request
 * that the engine approves in full: a 40-year-old male member with an active link and policy covering the
 * treatment date, in network, category A with benefit 1 and its sub-benefit 11, a contract price equal to
 * the claimed one, no history, no peers. Override only what a test is about.
 */
import { decide } from "../../../src/engine/prior-auth/decide.js";
import type {
  ContractPrice,
  Coverage,
  EngineContext,
  EngineDecision,
  EngineRequest,
  EngineSettings,
  HistoryItem,
  PeerStats,
  RequestItem,
} from "../../../src/engine/prior-auth/types.js";

export const NOW = new Date("2025-03-10T12:00:00.000Z");
export const TREATMENT_DATE = new Date("2025-03-10T09:00:00.000Z");
export const DEFAULT_SETTINGS: EngineSettings = {
  autoApprovalThreshold: 0.7,
  followUpDays: 14,
  duplicateWindowDays: 30,
};

/** an HbA1c test: 1 x 100.00 SAR under benefit 1, sub-benefit 11 */
export function makeItem(overrides: Partial<RequestItem> = {}): RequestItem {
  return {
    index: 0,
    serviceCode: "83036",
    serviceDescription: "Hemoglobin A1c",
    nphiesCode: "83036",
    nphiesType: "AMBULATORY",
    serviceType: "AMBULATORY",
    quantity: 1,
    unitAmount: 10_000,
    duration: null,
    frequency: null,
    admissionDate: null,
    dischargeDate: null,
    benefitCode: 1,
    subBenefitCode: 11,
    ...overrides,
  };
}

/** a professional out-patient pre-authorization for diabetes (E119); items are re-indexed by position */
export function makeRequest(overrides: Partial<EngineRequest> = {}): EngineRequest {
  const items = (overrides.items ?? [makeItem()]).map((item, index) => ({ ...item, index }));
  return {
    transactionType: "PREAUTH",
    treatmentDate: TREATMENT_DATE,
    requestDate: TREATMENT_DATE,
    claimType: "PROFESSIONAL",
    claimSubType: "OUT_PATIENT",
    isEmergency: false,
    isMaternity: false,
    isNewBorn: false,
    providerCchiNo: "PRV-1",
    diagnoses: [{ type: "primary", code: "E119", name: "Type 2 diabetes mellitus without complications" }],
    ...overrides,
    items,
  };
}

export function contractPrice(unitPrice: number, position = 0): ContractPrice {
  return { unitPrice, priceListErpId: "PL-1", priceItemErpId: `PI-${position + 1}` };
}

/** an active link and policy for 2025, in network, category A: 100,000.00 / benefit 1 50,000.00 / sub 11 10,000.00 */
export function makeCoverage(overrides: Partial<Coverage> = {}): Coverage {
  return {
    policy: { status: "ACTIVE", startDate: "2025-01-01", endDate: "2025-12-31" },
    link: { status: "ACTIVE", startDate: "2025-01-01", endDate: "2025-12-31", categoryCode: "A" },
    providerInNetwork: true,
    category: {
      limit: 10_000_000,
      utilized: 0,
      benefits: [
        {
          code: 1,
          limit: 5_000_000,
          utilized: 0,
          subBenefits: [{ code: 11, limit: 1_000_000, utilized: 0 }],
        },
      ],
    },
    ...overrides,
  };
}

/** a standard-mode context for `request`: a contract price equal to each item's claimed unit amount */
export function makeContext(request: EngineRequest, overrides: Partial<EngineContext> = {}): EngineContext {
  return {
    mode: "standard",
    member: { gender: "MALE", dateOfBirth: new Date("1985-01-15T00:00:00.000Z") },
    coverage: makeCoverage(),
    prices: request.items.map((item, i) => contractPrice(item.unitAmount, i)),
    history: [],
    peers: new Map(),
    pairCounts: new Map(),
    pairTotal: 0,
    memberActivity: { requests: 0, providers: 0 },
    diagnosisEdits: new Map(),
    settings: DEFAULT_SETTINGS,
    ...overrides,
  };
}

/** a lightweight-mode context: no coverage and no price list */
export function makeLightweightContext(
  request: EngineRequest,
  overrides: Partial<EngineContext> = {},
): EngineContext {
  return makeContext(request, {
    mode: "lightweight",
    coverage: undefined,
    prices: request.items.map(() => undefined),
    ...overrides,
  });
}

/** an approved history item of the member, 10 days before the treatment date, at the same provider */
export function makeHistoryItem(overrides: Partial<HistoryItem> = {}): HistoryItem {
  return {
    date: new Date("2025-02-28T10:00:00.000Z"),
    serviceCode: "83036",
    nphiesCode: "83036",
    serviceType: "AMBULATORY",
    quantity: 1,
    unitAmount: 10_000,
    providerCchiNo: "PRV-1",
    diagnosisCodes: ["E119"],
    approved: true,
    reference: "TX-OLD-1",
    ...overrides,
  };
}

/** peers of one service code: by default 31 approved items around 100.00 SAR, quantity 1 */
export function makePeers(overrides: Partial<PeerStats> = {}): PeerStats {
  return {
    count: 31,
    medianUnitAmount: 10_000,
    madUnitAmount: 1_000,
    medianQuantity: 1,
    madQuantity: 0,
    ...overrides,
  };
}

export function run(request: EngineRequest, context: EngineContext = makeContext(request)): EngineDecision {
  return decide(request, context, NOW);
}

/** the engine codes of an item's reasons, in order */
export const codesOf = (decision: EngineDecision, index = 0): string[] =>
  (decision.items[index]?.reasons ?? []).map((reason) => reason.code);

/** the reason of an item with the given engine code (throws when absent, to fail loudly) */
export function reasonOf(decision: EngineDecision, code: string, index = 0) {
  const found = decision.items[index]?.reasons.find((reason) => reason.code === code);
  if (found === undefined)
    throw new Error(`item ${index} has no reason ${code}: ${codesOf(decision, index).join(", ")}`);
  return found;
}
