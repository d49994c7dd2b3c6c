/**
 * Every detector of the batch analysis (docs/architecture.md section 5), in the order their reasons are listed on an
 * item: the rules that reject, then the statistics that flag. Their sensitivity is in sensitivity.ts.
 */
import { RULE_DETECTORS } from "./rules.js";
import { providerExposureDetector } from "./stats-exposure.js";
import { memberPatterns } from "./stats-members.js";
import { providerProfiles } from "./stats-providers.js";
import { priceOutliers, quantityOutliers } from "./stats-service.js";
import { stayOutliers } from "./stats-stay.js";
import { upcoding } from "./stats-upcoding.js";
import { nearDuplicates, sameDaySplits } from "./stats-visits.js";
import type { Detector } from "./types.js";

/** the statistical and unsupervised detectors: each flags (source "ai", a score in 0..1, an FWA finding) */
export const STATISTICAL_DETECTORS: readonly Detector[] = Object.freeze([
  priceOutliers,
  quantityOutliers,
  stayOutliers,
  nearDuplicates,
  sameDaySplits,
  memberPatterns,
  providerProfiles,
  providerExposureDetector,
  upcoding,
]);

/** what the batch analysis runs: the rules, then the statistics */
export const FWA_DETECTORS: readonly Detector[] = Object.freeze([
  ...RULE_DETECTORS,
  ...STATISTICAL_DETECTORS,
]);
