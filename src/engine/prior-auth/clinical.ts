/**
 * Clinical edits (both modes). A diagnosis that cannot apply to the member (sex, age at the treatment date),
 * or a maternity or newborn flag that cannot, makes the whole request inconsistent: every item is rejected.
 * A service that cannot apply to the member, or whose kind the diagnoses do not support (dental, optical,
 * maternity, baby formula), rejects that item. Tenant-loaded edits replace the built-in facts for their codes.
 */
import {
  type DiagnosisFacts,
  diagnosisFacts,
  isDentalDiagnosis,
  isEyeDiagnosis,
  isFeedingDiagnosis,
  isMaternityDiagnosis,
  serviceFacts,
} from "../../reference/clinical.js";
import { normalizeIcd10 } from "../../reference/icd10.js";
import { ageAt, isoDay } from "./dates.js";
import { type CheckResult, type Finding, isType } from "./findings.js";
import { reason } from "./reasons.js";
import type { DiagnosisEdit, EngineContext, EngineRequest, Gender, Reason, RequestItem } from "./types.js";

const MATERNITY_AGES = { minAge: 12, maxAge: 55 };
/** formula is for babies; older children need a feeding or nutrition diagnosis to justify it */
const FORMULA_MAX_AGE = 2;

const sexWord = (sex: Gender): string => sex.toLowerCase();
const band = (min: number, max: number): string =>
  min === max ? `age ${min}` : max >= 124 ? `age ${min} or more` : `age ${min}-${max}`;
const outside = (age: number, facts: { minAge?: number; maxAge?: number }): boolean =>
  age < (facts.minAge ?? 0) || age > (facts.maxAge ?? Number.POSITIVE_INFINITY);

export function checkClinical(request: EngineRequest, context: EngineContext): CheckResult {
  const { gender, dateOfBirth } = context.member;
  const years = ageAt(dateOfBirth, request.treatmentDate);
  const age = years >= 0 ? years : null;
  const codes = [...new Set(request.diagnoses.map((d) => normalizeIcd10(d.code)))];
  const all: Reason[] = [];
  if (age === null) {
    const message = `date of birth ${isoDay(dateOfBirth)} is after the treatment date ${isoDay(request.treatmentDate)}`;
    all.push(reason("MZ-CLIN-12", message));
  }
  for (const code of codes) {
    const facts = factsOf(code, context.diagnosisEdits);
    if (facts.sex !== undefined && facts.sex !== gender) {
      const message = `diagnosis ${code} is for ${sexWord(facts.sex)} members (${facts.sexBasis}); the member is ${sexWord(gender)}`;
      all.push(reason("MZ-CLIN-01", message));
    }
    if (age !== null && outside(age, facts)) {
      const message = `diagnosis ${code} is for ${band(facts.minAge ?? 0, facts.maxAge ?? 124)} (${facts.ageBasis}); the member is ${age} at the treatment date`;
      all.push(reason("MZ-CLIN-02", message));
    }
  }
  if (request.isMaternity && gender === "MALE") {
    all.push(reason("MZ-CLIN-03", "the request is flagged maternity; the member is male"));
  }
  if (request.isMaternity && age !== null && outside(age, MATERNITY_AGES)) {
    const message = `the request is flagged maternity (age 12-55); the member is ${age} at the treatment date`;
    all.push(reason("MZ-CLIN-04", message));
  }
  if (request.isNewBorn && age !== null && age >= 1) {
    const message = `the request is flagged newborn (age 0); the member is ${age} at the treatment date`;
    all.push(reason("MZ-CLIN-05", message));
  }
  const support = {
    dental: codes.some(isDentalDiagnosis),
    eye: codes.some(isEyeDiagnosis),
    feeding: codes.some(isFeedingDiagnosis),
    maternity: request.isMaternity || codes.some(isMaternityDiagnosis),
    list: codes.join(", "),
  };
  const findings = request.items.map((item): Finding[] =>
    [...all, ...itemReasons(request, item, gender, age, support)].map((r) => ({ kind: "reject", reason: r })),
  );
  return { findings, alerts: [] };
}

interface Support {
  dental: boolean;
  eye: boolean;
  feeding: boolean;
  maternity: boolean;
  list: string;
}

function itemReasons(
  request: EngineRequest,
  item: RequestItem,
  gender: Gender,
  age: number | null,
  support: Support,
): Reason[] {
  const reasons: Reason[] = [];
  const service = `service ${item.serviceCode}`;
  const facts = serviceFacts(item.serviceCode, item.nphiesCode, item.serviceDescription);
  const wrongSex = facts.find((f) => f.sex !== undefined && f.sex !== gender);
  if (wrongSex?.sex !== undefined) {
    const message = `${service} is for ${sexWord(wrongSex.sex)} members (${wrongSex.basis}); the member is ${sexWord(gender)}`;
    reasons.push(reason("MZ-CLIN-06", message));
  }
  const wrongAge = age === null ? undefined : facts.find((f) => outside(age, f));
  if (wrongAge !== undefined) {
    const message = `${service} is for ${band(wrongAge.minAge ?? 0, wrongAge.maxAge ?? 124)} (${wrongAge.basis}); the member is ${age} at the treatment date`;
    reasons.push(reason("MZ-CLIN-07", message));
  }
  if (isType(item, "BABY_FORMULA") && age !== null && age > FORMULA_MAX_AGE && !support.feeding) {
    reasons.push(
      reason("MZ-CLIN-07", `baby formula is for members under 3; the member is ${age} at the treatment date`),
    );
    const message = `no feeding or nutrition diagnosis among ${support.list} supports baby formula at age ${age}`;
    reasons.push(reason("MZ-CLIN-11", message));
  }
  if ((isType(item, "DENTAL") || request.claimType === "DENTAL") && !support.dental) {
    reasons.push(
      reason("MZ-CLIN-08", `dental ${service} needs a dental diagnosis; the request has ${support.list}`),
    );
  }
  if ((isType(item, "OPTICAL") || request.claimType === "OPTICAL") && !support.eye) {
    reasons.push(
      reason("MZ-CLIN-09", `optical ${service} needs an eye diagnosis; the request has ${support.list}`),
    );
  }
  const maternity = facts.find((f) => f.maternity === true);
  if (maternity !== undefined && !support.maternity) {
    const message = `${service} is maternity care (${maternity.basis}) and needs a maternity diagnosis or the maternity flag; the request has ${support.list}`;
    reasons.push(reason("MZ-CLIN-10", message));
  }
  return reasons;
}

/** a tenant edit for the code (or the nearest parent code it names) wins over the built-in facts */
function factsOf(code: string, edits: ReadonlyMap<string, DiagnosisEdit>): DiagnosisFacts {
  if (edits.size > 0) {
    for (let length = code.length; length >= 3; length -= 1) {
      const named = code.slice(0, length);
      const edit = edits.get(named);
      if (edit !== undefined) return fromEdit(edit, named);
    }
  }
  return diagnosisFacts(code);
}

function fromEdit(edit: DiagnosisEdit, named: string): DiagnosisFacts {
  const mins = [
    edit.minAge,
    edit.maternity ? MATERNITY_AGES.minAge : undefined,
    edit.newborn ? 0 : undefined,
  ];
  const maxs = [
    edit.maxAge,
    edit.maternity ? MATERNITY_AGES.maxAge : undefined,
    edit.newborn ? 0 : undefined,
  ];
  const defined = (values: (number | undefined)[]): number[] =>
    values.filter((v): v is number => v !== undefined);
  const sex = edit.sex ?? (edit.maternity ? "FEMALE" : undefined);
  const facts: DiagnosisFacts = {};
  if (sex !== undefined) Object.assign(facts, { sex, sexBasis: `tenant edit of ${named}` });
  const [low, high] = [defined(mins), defined(maxs)];
  if (low.length + high.length > 0) {
    Object.assign(facts, {
      minAge: low.length > 0 ? Math.max(...low) : 0,
      maxAge: high.length > 0 ? Math.min(...high) : 124,
      ageBasis: `tenant edit of ${named}${edit.maternity ? ", maternity" : edit.newborn ? ", newborn" : ""}`,
    });
  }
  return facts;
}
