/**
 * Finding helpers shared by the detectors. Rules reject with certainty through `reject`: score 1, source
 * "rules". Statistical detectors flag through `flag`, with a score in 0..1 and source "ai"; findings that
 * only support others (sensitivity.ts: `supporting`) through `supportingFlag`.
 */
import type { Finding } from "./types.js";

/** a rule's rejection; `fwa` says whether it counts as an FWA case (exact duplicates) or not (data errors) */
export function reject(code: string, description: string, cause: string, fwa: boolean): Finding {
  return { code, description, cause, typeDecision: "REJECT", source: "rules", score: 1, fwa };
}

/** a statistical detector's flag; the score is clamped to 0..1 */
export function flag(code: string, description: string, cause: string, score: number, fwa = true): Finding {
  const clamped = Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
  return { code, description, cause, typeDecision: "FLAG", source: "ai", score: clamped, fwa };
}

/** a flag that supports other evidence: it raises its item's score but does not flag the item alone */
export function supportingFlag(code: string, description: string, cause: string, score: number): Finding {
  return { ...flag(code, description, cause, score), supporting: true };
}
