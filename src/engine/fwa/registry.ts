/**
 * The one registry of the batch analysis (docs/architecture.md section 5): every rule and detector, each
 * once, in the order their reasons are listed on an item. The analysis runs FWA_DETECTORS, the rules that
 * reject then the statistics that flag; each kind is exported alone for the tests and benchmarks that run
 * it. Their sensitivity is in sensitivity.ts. A provider's exposure (its volume, stays and cost per day) is
 * no detector: it is a term of the provider ranking (ranking/providers.ts), not a reason on each claim.
 */
import { memberPatternDetector } from "./detectors/member-pattern.js";
import { nearDuplicateDetector } from "./detectors/near-duplicate.js";
import { priceOutlierDetector } from "./detectors/price-outlier.js";
import { providerProfileDetector } from "./detectors/provider-profile.js";
import { quantityOutlierDetector } from "./detectors/quantity-outlier.js";
import { sameDaySplitDetector } from "./detectors/same-day-split.js";
import { stayOutlierDetector } from "./detectors/stay-outlier.js";
import { upcodingDetector } from "./detectors/upcoding.js";
import { birthAfterServiceRule } from "./rules/birth-after-service.js";
import { diagnosisConflictRule } from "./rules/diagnosis-conflict.js";
import { dischargeBeforeAdmissionRule } from "./rules/discharge-before-admission.js";
import { exactDuplicateRule } from "./rules/exact-duplicate.js";
import { preAuthRejectedRule } from "./rules/pre-auth-rejected.js";
import { serviceBeforeCoverageRule } from "./rules/service-before-coverage.js";
import type { Detector } from "./types.js";

/** the rules: each rejects a certain inconsistency (score 1, source "rules") */
export const RULE_DETECTORS: readonly Detector[] = Object.freeze([
  serviceBeforeCoverageRule,
  birthAfterServiceRule,
  dischargeBeforeAdmissionRule,
  diagnosisConflictRule,
  preAuthRejectedRule,
  exactDuplicateRule,
]);

/** the statistical and unsupervised detectors: each flags (source "ai", a score in 0..1, an FWA finding) */
export const STATISTICAL_DETECTORS: readonly Detector[] = Object.freeze([
  priceOutlierDetector,
  quantityOutlierDetector,
  stayOutlierDetector,
  nearDuplicateDetector,
  sameDaySplitDetector,
  memberPatternDetector,
  providerProfileDetector,
  upcodingDetector,
]);

/** what the batch analysis runs: the rules, then the statistics */
export const FWA_DETECTORS: readonly Detector[] = Object.freeze([
  ...RULE_DETECTORS,
  ...STATISTICAL_DETECTORS,
]);
