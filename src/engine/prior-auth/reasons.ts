/**
 * The engine's own reason catalogue. Every rejection, cut and alert names one of these codes, so a decision can
 * be explained and its reasons counted; each rule code maps to the NPHIES adjudication reason a Saudi payer
 * would send, and the anomaly (AI) codes have none. Codes are stable: add new ones, never renumber.
 */
import { NPHIES_REASONS } from "../../reference/nphies-reasons.js";
import type { Reason, ReasonSource } from "./types.js";

export interface EngineReason {
  nphiesCode: string | null;
  title: string;
  source: ReasonSource;
}

const rule = (nphiesCode: string, title: string): EngineReason => ({ nphiesCode, title, source: "rules" });
const ai = (title: string): EngineReason => ({ nphiesCode: null, title, source: "ai" });

// biome-ignore format: one code per line keeps the catalogue scannable
export const ENGINE_REASONS = {
  "MZ-ELIG-01": rule("NDC032", "Member is not on the policy"),
  "MZ-ELIG-02": rule("NDC032", "Member's link to the policy is not active"),
  "MZ-ELIG-03": rule("NDC032", "Policy is not active"),
  "MZ-ELIG-04": rule("NDC033", "Treatment date after the end of coverage"),
  "MZ-ELIG-05": rule("NDC034", "Treatment date before the start of coverage"),
  "MZ-NET-01": rule("NDC035", "Provider is outside the member's network"),
  "MZ-BEN-01": rule("NDC003", "Member's category is not defined in the policy's template"),
  "MZ-BEN-02": rule("NDC003", "Benefit is not in the member's category"),
  "MZ-BEN-03": rule("NDC003", "Sub-benefit is not under the item's benefit"),
  "MZ-PRICE-01": rule("NDC079", "Claimed unit price above the contract price"),
  "MZ-PRICE-02": rule("NDC038", "Service has no contract price"),
  "MZ-LIM-01": rule("NDC036", "Limit used up"),
  "MZ-LIM-02": rule("NDC017", "Limit covers only part of the item"),
  "MZ-CLIN-01": rule("NDC053", "Diagnosis inconsistent with the member's gender"),
  "MZ-CLIN-02": rule("NDC052", "Diagnosis inconsistent with the member's age"),
  "MZ-CLIN-03": rule("NDC053", "Maternity request for a male member"),
  "MZ-CLIN-04": rule("NDC052", "Maternity request outside the maternity age band"),
  "MZ-CLIN-05": rule("NDC052", "Newborn request for a member aged one year or more"),
  "MZ-CLIN-06": rule("NDC055", "Service inconsistent with the member's gender"),
  "MZ-CLIN-07": rule("NDC054", "Service inconsistent with the member's age"),
  "MZ-CLIN-08": rule("NDC060", "Dental service without a dental diagnosis"),
  "MZ-CLIN-09": rule("NDC060", "Optical service without an eye diagnosis"),
  "MZ-CLIN-10": rule("NDC060", "Maternity service without a maternity diagnosis or flag"),
  "MZ-CLIN-11": rule("NDC045", "Baby formula without the age or a feeding diagnosis to support it"),
  "MZ-CLIN-12": rule("NDC076", "Date of birth after the treatment date"),
  "MZ-QTY-01": rule("NDC051", "Quantity above frequency times duration"),
  "MZ-QTY-02": rule("NDC056", "Medication duration above 90 days"),
  "MZ-QTY-03": rule("NDC048", "More than one consultation in one item"),
  "MZ-QTY-04": rule("NDC048", "More than two optical units in one item"),
  "MZ-DUP-01": rule("NDC081", "Same service twice in the request"),
  "MZ-DUP-02": rule("NDC080", "Same service approved recently"),
  "MZ-DUP-03": rule("NDC043", "Consultation within the free follow-up period"),
  "MZ-AI-01": ai("Unit price far above peers"),
  "MZ-AI-02": ai("Quantity far above peers"),
  "MZ-AI-03": ai("Diagnosis never seen with this service"),
  "MZ-AI-04": ai("Unusual member activity"),
  "MZ-AI-05": ai("Held for review: anomaly score above the threshold"),
} as const satisfies Record<string, EngineReason>;

export type EngineReasonCode = keyof typeof ENGINE_REASONS;

/** a reason of the catalogue with a message that carries the figures */
export function reason(code: EngineReasonCode, message: string): Reason {
  const entry: EngineReason = ENGINE_REASONS[code];
  return { code, nphiesCode: entry.nphiesCode, message, source: entry.source };
}

/** an NPHIES code (NDC001..NDC086) or one of the engine's codes: what a reviewer may cite */
export function isKnownReasonCode(code: string): boolean {
  return NPHIES_REASONS.has(code) || Object.hasOwn(ENGINE_REASONS, code);
}
