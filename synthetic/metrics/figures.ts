/**
 * The figures of `npm run bench:fwa` (bench/fwa.ts): the analysis of a labelled synthetic batch held against
 * its ground truth (injection/injector.ts). The detectors are a black box: only the decisions are read.
 *
 * - Item level: an item is predicted positive when its status is flagged or rejected. Positives are the items
 *   the truth labels; clean items are those of clean claims (no claim record, and neither the provider nor the
 *   member labelled by an entity pattern). The other items of touched claims (a price-inflated claim's other
 *   items, a duplicate's original, an upcoding clinic's other claims, ...) are neither.
 * - Recall of a pattern: its labelled items predicted positive, over its labelled items.
 * - Precision of a pattern: findings do not name patterns, so the false positives (predicted-positive items no
 *   pattern labels) are apportioned to patterns through their finding codes: an item's weight 1 is split
 *   evenly over its codes, and a code's part over the patterns in proportion to the labelled items carrying
 *   that code, pattern by pattern (a code never seen on a labelled item leaves its part unattributed). The
 *   precision of a pattern is its detected items over those plus the false positives apportioned to it; "vs
 *   clean" apportions only the false positives on clean claims (not the unlabelled items of touched claims:
 *   a duplicate's original, an upcoding clinic's own 99215s, a high-volume clinic's own claims, ...).
 * - Overall precision: labelled items among all predicted-positive items (any unlabelled item counts against);
 *   "against clean" counts only clean items against.
 * - False positives on clean claims: clean claims with any item flagged or rejected, over clean claims.
 * - ROC-AUC (rank-based Mann-Whitney, ties at half): items by itemScore (labelled vs clean items); providers
 *   by providerScore, or the mean itemScore of their items where the detectors reported none (labelled by a
 *   provider pattern vs all other providers); members likewise (doctor_shopping).
 * - Entity recall: labelled providers (members) whose providerScore (memberScore) is at least
 *   ENTITY_THRESHOLD; an entity without a score is not detected.
 */
import type { FwaPattern } from "../types.js";

export const TARGETS = {
  ruleRecall: 0.95,
  statisticalRecall: 0.8,
  cleanClaimFpRate: 0.03,
  providerAuc: 0.95,
} as const;
/** an entity whose score reaches this is detected */
export const ENTITY_THRESHOLD = 0.5;

/** num / den, NaN when den is 0 */
export const ratio = (num: number, den: number): number => (den === 0 ? Number.NaN : num / den);
export const precision = (truePositives: number, falsePositives: number): number =>
  ratio(truePositives, truePositives + falsePositives);
export const recall = (truePositives: number, falseNegatives: number): number =>
  ratio(truePositives, truePositives + falseNegatives);

export interface PatternFigures {
  pattern: FwaPattern;
  kind: "rule" | "statistical";
  /** claims with a claim record of the pattern, by role */
  claims: number;
  /** labelled items, and those predicted positive */
  items: number;
  detected: number;
  recall: number;
  /** false positives apportioned to the pattern (all unlabelled items; clean items only), and precisions */
  falsePositives: number;
  falsePositivesClean: number;
  precision: number;
  precisionVsClean: number;
  /** the finding codes on the pattern's detected items, most frequent first */
  codes: string[];
  target: number;
  met: boolean;
  /** provider or member patterns: labelled entities, those detected, recall */
  entity?: { level: "provider" | "member"; labelled: number; detected: number; recall: number };
}

export interface AucFigures {
  auc: number;
  positives: number;
  negatives: number;
}

export interface FwaFigures {
  claims: number;
  items: number;
  /** claims the injection touched (any claim record), labelled ones, and clean ones */
  touchedClaims: number;
  cleanClaims: number;
  labelledItems: number;
  cleanItems: number;
  patterns: PatternFigures[];
  overall: {
    predicted: number;
    detected: number;
    precision: number;
    /** counting only clean items against */
    precisionAgainstClean: number;
    recall: number;
    /** the mean of the patterns' recalls */
    macroRecall: number;
  };
  cleanClaimsFlagged: number;
  cleanClaimFpRate: number;
  cleanItemFpRate: number;
  itemAuc: AucFigures;
  /** providerScore where reported (`fromEntityScore` providers), else the mean item score */
  providerAuc: AucFigures & { fromEntityScore: number; fromItemMean: number };
  /** the mean item score of every provider */
  providerAucItemMean: AucFigures;
  memberAuc: AucFigures & { fromEntityScore: number; fromItemMean: number };
  /** entities at or above ENTITY_THRESHOLD that no entity pattern labels */
  unlabelledProvidersFlagged: number;
  unlabelledMembersFlagged: number;
  /**
   * finding codes: predicted-positive items carrying them, how many are labelled, on clean claims, and the
   * patterns of the labelled ones (share)
   */
  codes: { code: string; items: number; labelled: number; clean: number; patterns: Record<string, number> }[];
  /** false positives whose codes were never seen on a labelled item */
  unattributedFalsePositives: number;
  targets: { met: number; of: number };
}
