/** What the rule tests share: a rule run on claims, its findings read back as hits, and a rule's finding. */
import assert from "node:assert/strict";
import type { Detector, Finding } from "../../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { viewOf } from "../fixtures.js";

export interface Hit {
  /** "item 3" or "claim 0" */
  at: string;
  code: string;
  cause: string;
  finding: Finding;
}

export function run(detector: Detector, claims: BatchClaimInput[]): Hit[] {
  const hits: Hit[] = [];
  const record = (at: string, finding: Finding) =>
    hits.push({ at, code: finding.code, cause: finding.cause, finding });
  detector.run(viewOf(claims), {
    item: (i, finding) => record(`item ${i}`, finding),
    claim: (c, finding) => record(`claim ${c}`, finding),
    entity: () => assert.fail("rules report no entity scores"),
  });
  return hits;
}

export const isRule = (finding: Finding, fwa: boolean) =>
  assert.deepEqual(
    { typeDecision: finding.typeDecision, source: finding.source, score: finding.score, fwa: finding.fwa },
    { typeDecision: "REJECT", source: "rules", score: 1, fwa },
  );
