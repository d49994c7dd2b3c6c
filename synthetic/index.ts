/** The synthetic-data package: claims batches, labelled FWA patterns with their ground truth, and the figures. */

export { generateClaims } from "./generate.js";
export { evaluate } from "./metrics/evaluate.js";
export {
  type AucFigures,
  ENTITY_THRESHOLD,
  type FwaFigures,
  type PatternFigures,
  precision,
  ratio,
  recall,
  TARGETS,
} from "./metrics/figures.js";
export { DIAGNOSES, type Diagnosis } from "./population/diagnoses.js";
export { SERVICES, type Service, service } from "./population/services.js";
export type { Setting } from "./population/shares.js";
export { Rng } from "./random.js";
export * from "./types.js";
export { generateBatch, truthPathOf, type WriteOptions, type WriteResult, writeBatch } from "./writer.js";
