import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import type {
  DiagnosisEdit,
  EngineRequest,
  Gender,
  RequestDiagnosis,
} from "../../../src/engine/prior-auth/types.js";
import {
  codesOf,
  makeContext,
  makeItem,
  makeLightweightContext,
  makeRequest,
  reasonOf,
  run,
} from "./fixtures.js";

const MCE_EDITS = "../shared/data/mce-v37-edits.tsv";

/** a member of the given sex born on the date (the treatment date is 2025-03-10) */
const member = (gender: Gender, born: string) => ({ gender, dateOfBirth: new Date(`${born}T00:00:00.000Z`) });

function decideFor(
  request: EngineRequest,
  gender: Gender,
  born: string,
  edits = new Map<string, DiagnosisEdit>(),
) {
  return run(request, makeContext(request, { member: member(gender, born), diagnosisEdits: edits }));
}

const dx = (...codes: string[]): RequestDiagnosis[] =>
  codes.map((code, i) => ({ type: i === 0 ? "primary" : "secondary", code, name: null }));

const twoItems = (diagnoses: RequestDiagnosis[], overrides: Partial<EngineRequest> = {}) =>
  makeRequest({
    diagnoses,
    items: [makeItem(), makeItem({ serviceCode: "80061", nphiesCode: "80061" })],
    ...overrides,
  });

describe("engine: diagnoses against the member", () => {
  it("rejects every item when a diagnosis is for the other sex (NDC053)", () => {
    const decision = decideFor(twoItems(dx("E119", "N832")), "MALE", "1985-01-15");
    for (const index of [0, 1]) {
      assert.equal(decision.items[index]?.outcome, "REJECTED");
      assert.deepEqual(codesOf(decision, index), ["MZ-CLIN-01"]);
    }
    assert.deepEqual(reasonOf(decision, "MZ-CLIN-01"), {
      code: "MZ-CLIN-01",
      nphiesCode: "NDC053",
      message: "diagnosis N832 is for female members (female-only range N70-N98); the member is male",
      source: "rules",
    });
    assert.equal(
      decideFor(twoItems(dx("E119", "N832")), "FEMALE", "1985-01-15").items[0]?.outcome,
      "APPROVED",
    );
  });

  it("rejects every item when a diagnosis is for another age (NDC052)", () => {
    const decision = decideFor(twoItems(dx("P599")), "MALE", "1985-01-15");
    assert.deepEqual(reasonOf(decision, "MZ-CLIN-02", 1), {
      code: "MZ-CLIN-02",
      nphiesCode: "NDC052",
      message: "diagnosis P599 is for age 0 (newborn range P00-P96); the member is 40 at the treatment date",
      source: "rules",
    });
    assert.equal(decideFor(twoItems(dx("P599")), "MALE", "2025-01-02").items[0]?.outcome, "APPROVED");
    const older = decideFor(twoItems(dx("O800")), "FEMALE", "1965-01-01");
    assert.equal(
      reasonOf(older, "MZ-CLIN-02").message,
      "diagnosis O800 is for age 12-55 (maternity range O00-O9A); the member is 60 at the treatment date",
    );
    const child = decideFor(twoItems(dx("N400")), "MALE", "2015-01-01");
    assert.match(
      reasonOf(child, "MZ-CLIN-02").message,
      /is for age 15 or more \(adult range N40\); the member is 10/,
    );
  });

  it("counts completed years at the treatment date", () => {
    // 2025-03-10: born 2015-03-11 is still 9, born 2015-03-10 is 10
    assert.equal(decideFor(twoItems(dx("N400")), "MALE", "2015-03-11").items[0]?.outcome, "REJECTED");
    assert.match(
      reasonOf(decideFor(twoItems(dx("O800")), "FEMALE", "2013-03-11"), "MZ-CLIN-02").message,
      /the member is 11 /,
    );
    assert.equal(decideFor(twoItems(dx("O800")), "FEMALE", "2013-03-10").items[0]?.outcome, "APPROVED");
  });

  it("rejects a date of birth after the treatment date (NDC076)", () => {
    const decision = decideFor(twoItems(dx("E119")), "FEMALE", "2025-04-01");
    assert.deepEqual(codesOf(decision, 1), ["MZ-CLIN-12"]);
    assert.equal(reasonOf(decision, "MZ-CLIN-12").nphiesCode, "NDC076");
    assert.equal(
      reasonOf(decision, "MZ-CLIN-12").message,
      "date of birth 2025-04-01 is after the treatment date 2025-03-10",
    );
  });

  it("checks the maternity and newborn flags", () => {
    const maternity = twoItems(dx("E119"), { isMaternity: true });
    assert.deepEqual(reasonOf(decideFor(maternity, "MALE", "1985-01-15"), "MZ-CLIN-03", 1), {
      code: "MZ-CLIN-03",
      nphiesCode: "NDC053",
      message: "the request is flagged maternity; the member is male",
      source: "rules",
    });
    const old = decideFor(maternity, "FEMALE", "1968-01-01");
    assert.equal(reasonOf(old, "MZ-CLIN-04").nphiesCode, "NDC052");
    assert.equal(
      reasonOf(old, "MZ-CLIN-04").message,
      "the request is flagged maternity (age 12-55); the member is 57 at the treatment date",
    );
    assert.equal(decideFor(maternity, "FEMALE", "1995-06-01").items[0]?.outcome, "APPROVED");
    const newborn = twoItems(dx("E119"), { isNewBorn: true });
    const toddler = decideFor(newborn, "FEMALE", "2024-03-10");
    assert.equal(reasonOf(toddler, "MZ-CLIN-05").nphiesCode, "NDC052");
    assert.equal(
      reasonOf(toddler, "MZ-CLIN-05").message,
      "the request is flagged newborn (age 0); the member is 1 at the treatment date",
    );
    assert.equal(decideFor(newborn, "FEMALE", "2024-03-11").items[0]?.outcome, "APPROVED");
  });

  it("applies in lightweight mode too", () => {
    const request = twoItems(dx("N832"));
    const decision = run(request, makeLightweightContext(request));
    assert.deepEqual(codesOf(decision), ["MZ-CLIN-01"]);
  });
});

describe("engine: services against the member and the diagnoses", () => {
  const one = (
    overrides: Parameters<typeof makeItem>[0],
    diagnoses = dx("E119"),
    request: Partial<EngineRequest> = {},
  ) =>
    makeRequest({
      diagnoses,
      items: [makeItem(overrides), makeItem({ serviceCode: "80061", nphiesCode: "80061" })],
      ...request,
    });

  it("rejects a service for the other sex (NDC055), that item only", () => {
    const decision = decideFor(
      one({ serviceCode: "55700", nphiesCode: "55700", serviceDescription: "Biopsy" }),
      "FEMALE",
      "1985-01-15",
    );
    assert.deepEqual(reasonOf(decision, "MZ-CLIN-06"), {
      code: "MZ-CLIN-06",
      nphiesCode: "NDC055",
      message:
        "service 55700 is for male members (code 55700 (male genital system 54000-55899)); the member is female",
      source: "rules",
    });
    assert.equal(decision.items[1]?.outcome, "APPROVED");
    const words = decideFor(
      one({ serviceCode: "S-1", nphiesCode: "S-1", serviceDescription: "Pap smear" }),
      "MALE",
      "1985-01-15",
    );
    assert.equal(
      reasonOf(words, "MZ-CLIN-06").message,
      'service S-1 is for female members (description "pap smear"); the member is male',
    );
  });

  it("rejects a service for another age (NDC054)", () => {
    const decision = decideFor(
      one({ serviceCode: "99382", nphiesCode: "99382", serviceDescription: "Preventive visit" }),
      "MALE",
      "1985-01-15",
    );
    assert.deepEqual(reasonOf(decision, "MZ-CLIN-07"), {
      code: "MZ-CLIN-07",
      nphiesCode: "NDC054",
      message:
        "service 99382 is for age 1-4 (code 99382 (preventive visit, age 1-4)); the member is 40 at the treatment date",
      source: "rules",
    });
    const newborn = one({
      serviceCode: "NB-1",
      nphiesCode: "NB-1",
      serviceDescription: "Newborn hearing screening",
    });
    assert.equal(decideFor(newborn, "MALE", "2024-12-01").items[0]?.outcome, "APPROVED");
    assert.equal(decideFor(newborn, "MALE", "2023-12-01").items[0]?.outcome, "REJECTED");
  });

  it("allows baby formula under 3, or later with a feeding diagnosis (else NDC054 and NDC045)", () => {
    const formula = {
      serviceCode: "BF-1",
      nphiesCode: "BF-1",
      serviceType: "BABY_FORMULA",
      nphiesType: "BABY_FORMULA",
      serviceDescription: "Infant formula 400 g",
    } as const;
    assert.equal(decideFor(one(formula), "MALE", "2022-03-11").items[0]?.outcome, "APPROVED");
    const five = decideFor(one(formula), "MALE", "2020-01-01");
    assert.deepEqual(codesOf(five), ["MZ-CLIN-07", "MZ-CLIN-11"]);
    assert.equal(
      reasonOf(five, "MZ-CLIN-07").message,
      "baby formula is for members under 3; the member is 5 at the treatment date",
    );
    assert.deepEqual(reasonOf(five, "MZ-CLIN-11"), {
      code: "MZ-CLIN-11",
      nphiesCode: "NDC045",
      message: "no feeding or nutrition diagnosis among E119 supports baby formula at age 5",
      source: "rules",
    });
    assert.equal(
      decideFor(one(formula, dx("E119", "E840")), "MALE", "2020-01-01").items[0]?.outcome,
      "APPROVED",
    );
  });

  it("requires a dental diagnosis for dental services (NDC060)", () => {
    const dental = {
      serviceCode: "D2391",
      nphiesCode: "D2391",
      serviceType: "DENTAL",
      nphiesType: "DENTAL",
      serviceDescription: "Composite filling",
    } as const;
    const decision = decideFor(one(dental), "MALE", "1985-01-15");
    assert.deepEqual(reasonOf(decision, "MZ-CLIN-08"), {
      code: "MZ-CLIN-08",
      nphiesCode: "NDC060",
      message: "dental service D2391 needs a dental diagnosis; the request has E119",
      source: "rules",
    });
    assert.equal(decision.items[1]?.outcome, "APPROVED");
    assert.equal(decideFor(one(dental, dx("K021")), "MALE", "1985-01-15").items[0]?.outcome, "APPROVED");
    // a dental claim: every item needs the dental diagnosis
    const claim = decideFor(one({}, dx("E119"), { claimType: "DENTAL" }), "MALE", "1985-01-15");
    assert.deepEqual([codesOf(claim, 0), codesOf(claim, 1)], [["MZ-CLIN-08"], ["MZ-CLIN-08"]]);
  });

  it("requires an eye diagnosis for optical services (NDC060)", () => {
    const lenses = {
      serviceCode: "V2100",
      nphiesCode: "V2100",
      serviceType: "OPTICAL",
      nphiesType: "OPTICAL",
      serviceDescription: "Spectacle lenses",
    } as const;
    const decision = decideFor(one(lenses), "MALE", "1985-01-15");
    assert.equal(
      reasonOf(decision, "MZ-CLIN-09").message,
      "optical service V2100 needs an eye diagnosis; the request has E119",
    );
    assert.equal(reasonOf(decision, "MZ-CLIN-09").nphiesCode, "NDC060");
    assert.equal(decideFor(one(lenses, dx("H5213")), "MALE", "1985-01-15").items[0]?.outcome, "APPROVED");
    assert.equal(decideFor(one(lenses, dx("E11319")), "MALE", "1985-01-15").items[0]?.outcome, "APPROVED");
  });

  it("requires a maternity diagnosis or the maternity flag for maternity services (NDC060)", () => {
    const delivery = {
      serviceCode: "59400",
      nphiesCode: "59400",
      serviceDescription: "Routine obstetric care",
    };
    const decision = decideFor(one(delivery), "FEMALE", "1995-01-01");
    assert.deepEqual(codesOf(decision), ["MZ-CLIN-10"]);
    assert.equal(
      reasonOf(decision, "MZ-CLIN-10").message,
      "service 59400 is maternity care (code 59400 (maternity care and delivery 59000-59899)) and needs a maternity diagnosis or the maternity flag; the request has E119",
    );
    assert.equal(decideFor(one(delivery, dx("Z3400")), "FEMALE", "1995-01-01").items[0]?.outcome, "APPROVED");
    assert.equal(
      decideFor(one(delivery, dx("E119"), { isMaternity: true }), "FEMALE", "1995-01-01").items[0]?.outcome,
      "APPROVED",
    );
    // a pregnancy test is not maternity care
    const test = { serviceCode: "81025", nphiesCode: "81025", serviceDescription: "Urine pregnancy test" };
    assert.equal(decideFor(one(test), "FEMALE", "1995-01-01").items[0]?.outcome, "APPROVED");
  });
});

describe("engine: tenant diagnosis edits", () => {
  it("take precedence over the built-in facts for the codes they name", () => {
    const request = twoItems(dx("N832"));
    // the tenant says N832 is for anyone
    assert.equal(
      decideFor(request, "MALE", "1985-01-15", new Map([["N832", {}]])).items[0]?.outcome,
      "APPROVED",
    );
    const female = decideFor(
      twoItems(dx("E119")),
      "MALE",
      "1985-01-15",
      new Map([["E119", { sex: "FEMALE" }]]),
    );
    assert.equal(
      reasonOf(female, "MZ-CLIN-01").message,
      "diagnosis E119 is for female members (tenant edit of E119); the member is male",
    );
  });

  it("apply to the children of a code they name", () => {
    const decision = decideFor(
      twoItems(dx("E119")),
      "MALE",
      "1985-01-15",
      new Map([["E11", { minAge: 50 }]]),
    );
    assert.equal(
      reasonOf(decision, "MZ-CLIN-02").message,
      "diagnosis E119 is for age 50 or more (tenant edit of E11); the member is 40 at the treatment date",
    );
  });

  it("read maternity as female 12-55 and newborn as age 0", () => {
    const edits = new Map<string, DiagnosisEdit>([
      ["X001", { maternity: true }],
      ["X002", { newborn: true }],
    ]);
    const male = decideFor(twoItems(dx("X001")), "MALE", "1985-01-15", edits);
    assert.deepEqual(codesOf(male), ["MZ-CLIN-01"]);
    const older = decideFor(twoItems(dx("X001")), "FEMALE", "1960-01-15", edits);
    assert.equal(
      reasonOf(older, "MZ-CLIN-02").message,
      "diagnosis X001 is for age 12-55 (tenant edit of X001, maternity); the member is 65 at the treatment date",
    );
    assert.deepEqual(codesOf(decideFor(twoItems(dx("X002")), "FEMALE", "2023-01-15", edits)), ["MZ-CLIN-02"]);
  });

  it("loaded from the CMS MCE v37 table behave as its edit types say", {
    skip: !existsSync(MCE_EDITS) && `${MCE_EDITS} is absent: MCE edits not tested`,
  }, () => {
    const edits = loadMceEdits(readFileSync(MCE_EDITS, "utf8"));
    assert.ok(edits.size > 4_000, `loaded ${edits.size} codes`);
    const verdict = (code: string, gender: Gender, born: string) =>
      codesOf(decideFor(twoItems(dx(code)), gender, born, edits));
    // breast cancer is split by sex in the MCE (C50.011 female, C50.021 male); the built-in facts know neither
    assert.deepEqual(verdict("C50011", "MALE", "1970-01-01"), ["MZ-CLIN-01"]);
    assert.deepEqual(verdict("C50011", "FEMALE", "1970-01-01"), []);
    assert.deepEqual(verdict("C50021", "FEMALE", "1970-01-01"), ["MZ-CLIN-01"]);
    // Newborn_Only, Pediatric_Only, Adult_Only, Maternity_Only
    assert.deepEqual(verdict("N470", "MALE", "1985-01-15"), ["MZ-CLIN-02"]);
    assert.deepEqual(verdict("N470", "MALE", "2024-09-01"), []);
    assert.deepEqual(verdict("R6251", "FEMALE", "2000-01-01"), ["MZ-CLIN-02"]);
    assert.deepEqual(verdict("R6251", "FEMALE", "2010-01-01"), []);
    assert.deepEqual(verdict("I2510", "MALE", "2012-01-01"), ["MZ-CLIN-02"]);
    assert.deepEqual(verdict("O800", "MALE", "1990-01-01"), ["MZ-CLIN-01"]);
    assert.deepEqual(verdict("O800", "FEMALE", "2014-01-01"), ["MZ-CLIN-02"]);
    assert.deepEqual(verdict("O800", "FEMALE", "1990-01-01"), []);
    assert.equal(
      reasonOf(decideFor(twoItems(dx("O800")), "MALE", "1990-01-01", edits), "MZ-CLIN-01").message,
      "diagnosis O800 is for female members (tenant edit of O80); the member is male",
    );
  });
});

/** the MCE's diagnosis rows of the sex and age edit types, as a tenant would load them */
function loadMceEdits(text: string): Map<string, DiagnosisEdit> {
  const edits = new Map<string, DiagnosisEdit>();
  const bands: Record<string, [number, number]> = { Pediatric_Only: [0, 17], Adult_Only: [15, 124] };
  for (const line of text.trim().split("\n").slice(1)) {
    const [, , , , type = "", codeType, code = ""] = line.split("\t");
    if (codeType !== "D") continue;
    const edit = edits.get(code) ?? {};
    if (type === "Female_Only") edit.sex = "FEMALE";
    else if (type === "Male_Only") edit.sex = "MALE";
    else if (type === "Newborn_Only") edit.newborn = true;
    else if (type === "Maternity_Only") edit.maternity = true;
    else if (bands[type] !== undefined) {
      const [min, max] = bands[type];
      edit.minAge = Math.max(edit.minAge ?? min, min);
      edit.maxAge = Math.min(edit.maxAge ?? max, max);
    } else continue;
    edits.set(code, edit);
  }
  return edits;
}
