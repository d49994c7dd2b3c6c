/**
 * How the population and its claims are made up: provider types and their shares, the settings of hospital
 * claims, ages, marital status, long-term conditions, and the optional fields providers' systems send.
 */
import { BATCH_MARITAL_STATUSES, BATCH_PROVIDER_TYPES } from "../../src/engine/fwa/columns/claim.js";

export const PROVIDER_TYPES = BATCH_PROVIDER_TYPES;
/** share of each provider type (PROVIDER_TYPES order) among providers, and among claims */
export const PROVIDER_SHARE = [0.42, 0.12, 0.26, 0.12, 0.08];
export const CLAIM_SHARE = [0.34, 0.25, 0.26, 0.1, 0.05];
/** where a claim is made: a clinic (office), a hospital's outpatients, emergency room or ward, and the rest */
export type Setting = "office" | "opd" | "er" | "inpatient" | "pharmacy" | "lab" | "radiology";
/** hospital claims by setting */
export const HOSPITAL_SETTINGS: readonly Setting[] = ["opd", "er", "inpatient"];
export const HOSPITAL_SHARE = [0.5, 0.3, 0.2];
/** ages at the batch start, [lo, hi, share]: a working population with its families */
export const AGE_BANDS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0.018],
  [1, 4, 0.065],
  [5, 17, 0.2],
  [18, 39, 0.4],
  [40, 64, 0.277],
  [65, 90, 0.04],
];
export const MARITAL = BATCH_MARITAL_STATUSES;
/** the long-term conditions members carry, and their prevalence from age 35 (under 60, 60 and over) */
export const CHRONIC = ["I10", "E11.9", "E78.5", "E03.9", "J45.909"] as const;
/**
 * Optional fields as providers' systems send them: each provider sends a field (on all its claims) or
 * never does, with these odds.
 */
export const SENDS = {
  nphiesCode: 0.5,
  nphiesType: 0.7,
  serviceType: 0.7,
  specialty: 0.85,
  encounter: 0.8,
  emergencyFlag: 0.75,
  erpItem: 0.95,
  packageFlag: 0.4,
  frequency: 0.8,
  duration: 0.6,
} as const;
export type Sent = keyof typeof SENDS;
/** bit i of Population.providerSends: the i-th field of SENDS */
export const SENT_BIT = Object.fromEntries(Object.keys(SENDS).map((name, i) => [name, 1 << i])) as Record<
  Sent,
  number
>;
export const JUSTIFICATIONS = [
  "Symptoms persisting despite two weeks of conservative treatment",
  "Clinical findings require imaging to rule out structural cause",
  "Requested by treating physician after examination",
  "Follow-up of abnormal previous result",
];
