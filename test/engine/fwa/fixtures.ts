import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createColumnarBuilder } from "../../../src/engine/fwa/columns/columnar.js";
import { type PackedTexts, textAt } from "../../../src/engine/fwa/columns/texts.js";
import { ClaimResultEncoder, resultSourceOf } from "../../../src/engine/fwa/result-bytes.js";
import type { ResultContext } from "../../../src/engine/fwa/results.js";
import type { BatchDecisions, ColumnarBatchView } from "../../../src/engine/fwa/types.js";
import type { BatchClaimInput, BatchClaimItemInput } from "../../../src/modules/claims-batch/claim.js";

/** an item of a batch claim: an office visit at 150.00 */
export const item = (overrides: Partial<BatchClaimItemInput> = {}): BatchClaimItemInput => ({
  claimed_quantity: 1,
  claimed_amount: 150,
  service_code: "99213",
  service_description: "Office visit",
  ...overrides,
});

/** a clean claim: a 45-year-old man, covered since 2025, seen for diabetes on 2026-03-10 */
export const claim = (overrides: Partial<BatchClaimInput> = {}): BatchClaimInput => ({
  claim_id: "C-1",
  claim_type: "PROFESSIONAL",
  claim_sub_type: "OUT_PATIENT",
  claim_date: "2026-03-10",
  primary_diagnosis_code: "E11.9",
  primary_diagnosis_description: "Type 2 diabetes",
  member_id: "M-1",
  member_dob: "1980-05-20T00:00:00.000Z",
  member_gender: "MALE",
  provider_id: "P-1",
  medical_provider_type: "CLINIC",
  ph_id: "PH-1",
  insurance_start_date: "2025-01-01",
  claim_items: [item()],
  ...overrides,
});

/** `scripts/generate-batch.ts` with these arguments, run to its end from the project's root */
export function runGenerator(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/generate-batch.ts", ...args], {
    cwd: fileURLToPath(new URL("../../..", import.meta.url)),
    encoding: "utf8",
  });
}

/** the columns of these claims, as the batch job builds them */
export function viewOf(claims: BatchClaimInput[]): ColumnarBatchView {
  const builder = createColumnarBuilder({ claims: claims.length });
  for (const c of claims) builder.add(c);
  return builder.finish();
}

/**
 * completed years from a birth date to a date (both YYYY-MM-DD...), counted apart from
 * src/engine/fwa/columns/days.ts
 */
export function yearsBetween(dob: string, date: string): number {
  const digits = (text: string) => Number(text.slice(0, 4) + text.slice(5, 7) + text.slice(8, 10));
  return Math.floor((digits(date) - digits(dob)) / 10000);
}

/** packed texts as an array, in their order */
export const textsOf = (texts: PackedTexts): string[] =>
  Array.from({ length: texts.count }, (_, i) => textAt(texts, i));

const utf8 = new TextDecoder();

/** the claims' results as ClaimResultEncoder writes them, as text, by claim index */
export function resultJsonOf(
  view: ColumnarBatchView,
  decisions: BatchDecisions,
  context: ResultContext,
): (claimIndex: number) => string {
  const encoder = new ClaimResultEncoder(resultSourceOf(view, decisions, context));
  return (claimIndex) => utf8.decode(encoder.encode(claimIndex));
}
