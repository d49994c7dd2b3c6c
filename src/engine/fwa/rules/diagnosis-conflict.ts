/**
 * Diagnosis-gender (NDC053) and diagnosis-age (NDC052) conflicts, from the built-in clinical facts
 * (`diagnosisFacts`, ICD-10 ranges specific to one sex or age band). Every diagnosis of the claim is checked,
 * primary and secondary, each code once; age is the member's completed years at the claim date. A conflict
 * makes the claim inconsistent as a whole, so every item is rejected; a data error, not an FWA case.
 * An age is not judged when the member is born after the claim date (NDC076 says so already).
 */
import { type DiagnosisFacts, diagnosisFacts } from "../../../reference/clinical.js";
import { at, GENDER, textOf } from "../columns/columnar.js";
import { ageOn, isoOfDay } from "../columns/days.js";
import { reject } from "../findings.js";
import type { ColumnarBatchView, Detector, FindingSink } from "../types.js";

/** a diagnosis specific to the other sex */
export const DIAGNOSIS_CONFLICT_GENDER_CODE = "NDC053";
/** a diagnosis specific to an age band the member is outside of */
export const DIAGNOSIS_CONFLICT_AGE_CODE = "NDC052";

const band = (min: number, max: number): string =>
  min === max ? `age ${min}` : max >= 124 ? `age ${min} or more` : `age ${min}-${max}`;

export const diagnosisConflictRule: Detector = {
  name: "diagnosis-conflict",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    const { primaryDiagnosis, firstSecondary, secondaryDiagnoses } = batch;
    /** by string index: 0 not looked up yet, 1 no sex or age facts (most codes), 2 facts in `known` */
    const state = new Uint8Array(batch.strings.length);
    const known = new Map<number, DiagnosisFacts>();
    const relevant = (id: number): boolean => {
      if (state[id] === 0) {
        const facts = diagnosisFacts(textOf(batch, id));
        const some = facts.sex !== undefined || facts.minAge !== undefined || facts.maxAge !== undefined;
        if (some) known.set(id, facts);
        state[id] = some ? 2 : 1;
      }
      return state[id] === 2;
    };
    for (let c = 0; c < batch.claimCount; c += 1) {
      const primary = at(primaryDiagnosis, c);
      if (relevant(primary)) check(batch, sink, c, primary, "primary", known.get(primary) ?? {});
      const start = at(firstSecondary, c);
      const end = at(firstSecondary, c + 1);
      for (let k = start; k < end; k += 1) {
        const id = at(secondaryDiagnoses, k);
        if (!relevant(id) || id === primary || secondaryDiagnoses.subarray(start, k).includes(id)) continue;
        check(batch, sink, c, id, "secondary", known.get(id) ?? {});
      }
    }
  },
};

function check(
  batch: ColumnarBatchView,
  sink: FindingSink,
  c: number,
  id: number,
  role: string,
  facts: DiagnosisFacts,
): void {
  const code = textOf(batch, id);
  const female = at(batch.memberGender, c) === GENDER.FEMALE;
  if (facts.sex !== undefined && facts.sex !== (female ? "FEMALE" : "MALE")) {
    const cause =
      `${role} diagnosis ${code} is for ${facts.sex.toLowerCase()} members (${facts.sexBasis}); ` +
      `the member is ${female ? "female" : "male"}`;
    sink.claim(c, reject(DIAGNOSIS_CONFLICT_GENDER_CODE, "Diagnosis inconsistent with gender", cause, false));
  }
  if (facts.minAge === undefined && facts.maxAge === undefined) return;
  const claimDate = at(batch.claimDate, c);
  const age = ageOn(at(batch.memberDob, c), claimDate);
  if (!(age >= 0)) return;
  const min = facts.minAge ?? 0;
  const max = facts.maxAge ?? 124;
  if (age >= min && age <= max) return;
  const cause =
    `${role} diagnosis ${code} is for ${band(min, max)} (${facts.ageBasis}); ` +
    `the member is ${age} at the claim date ${isoOfDay(claimDate)}`;
  sink.claim(c, reject(DIAGNOSIS_CONFLICT_AGE_CODE, "Diagnosis inconsistent with age", cause, false));
}
