/**
 * The rules that reject (docs/architecture.md section 5), in the order their reasons are listed on an item. Statistical
 * detectors plug into analyzeBatch the same way: `[...RULE_DETECTORS, ...STATISTICAL_DETECTORS]`.
 */
import {
  birthAfterService,
  dischargeBeforeAdmission,
  preAuthRejected,
  serviceBeforeCoverage,
} from "./rules-claim.js";
import { diagnosisConflicts } from "./rules-diagnosis.js";
import { exactDuplicates } from "./rules-duplicates.js";
import type { Detector } from "./types.js";

export const RULE_DETECTORS: readonly Detector[] = Object.freeze([
  serviceBeforeCoverage,
  birthAfterService,
  dischargeBeforeAdmission,
  diagnosisConflicts,
  preAuthRejected,
  exactDuplicates,
]);
