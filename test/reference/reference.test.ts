import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseDurationDays } from "../../src/engine/prior-auth/dates.js";
import { sar } from "../../src/engine/prior-auth/format.js";
import { ENGINE_REASONS, isKnownReasonCode, reason } from "../../src/engine/prior-auth/reasons.js";
import {
  diagnosisFacts,
  isDentalDiagnosis,
  isEyeDiagnosis,
  isFeedingDiagnosis,
  isMaternityDiagnosis,
  rangeTable,
  serviceFacts,
} from "../../src/reference/clinical.js";
import { NPHIES_REASONS, nphiesDisplay } from "../../src/reference/nphies-reasons.js";

const REASONS_TSV = "../shared/reference/nphies-adjudication-reasons.tsv";

describe("NPHIES adjudication reasons", () => {
  it("holds the 86 codes with their displays", () => {
    assert.equal(NPHIES_REASONS.size, 86);
    assert.equal(nphiesDisplay("NDC001"), "Prior approval is required and was not obtained");
    assert.equal(nphiesDisplay("NDC052"), "Diagnosis is inconsistent with the patient's age");
    assert.equal(nphiesDisplay("NDC086"), "Appeal procedures not followed or time limits not met");
    assert.equal(nphiesDisplay("NDC087"), undefined);
  });

  it("matches the shared reference file", {
    skip: !existsSync(REASONS_TSV) && `${REASONS_TSV} is absent`,
  }, () => {
    const rows = readFileSync(REASONS_TSV, "utf8").trim().split("\n").slice(1);
    assert.deepEqual(
      rows.map((row) => row.split("\t").map((cell) => cell.trim())),
      [...NPHIES_REASONS].map(([code, display]) => [code, display]),
    );
  });
});

describe("engine reason catalogue", () => {
  it("names every rule with a known NPHIES code and every AI alert with none", () => {
    for (const [code, entry] of Object.entries(ENGINE_REASONS)) {
      assert.match(code, /^MZ-[A-Z]+-\d{2}$/);
      assert.ok(entry.title.length > 0);
      if (entry.source === "rules") assert.ok(NPHIES_REASONS.has(entry.nphiesCode ?? ""), code);
      else assert.equal(entry.nphiesCode, null, code);
    }
  });

  it("knows NPHIES codes and engine codes, and nothing else", () => {
    for (const code of ["NDC001", "NDC086", "MZ-ELIG-01", "MZ-AI-05"])
      assert.ok(isKnownReasonCode(code), code);
    for (const code of ["NDC000", "NDC087", "MZ-ELIG-99", "mz-elig-01", "toString", ""]) {
      assert.ok(!isKnownReasonCode(code), code);
    }
  });

  it("builds a reason from the catalogue with the figures in the message", () => {
    assert.deepEqual(reason("MZ-PRICE-01", "unit price 420.00 above 300.00"), {
      code: "MZ-PRICE-01",
      nphiesCode: "NDC079",
      message: "unit price 420.00 above 300.00",
      source: "rules",
    });
    assert.equal(reason("MZ-AI-01", "x").source, "ai");
  });
});

describe("clinical facts", () => {
  it("finds codes in sorted range tables and refuses overlapping ranges", () => {
    const table = rangeTable("O00-O9A Z32-Z37 Z39 Z3A K52.2");
    assert.equal(table.find("O9A11"), "O00-O9A");
    assert.equal(table.find("O99891"), "O00-O9A");
    assert.equal(table.find("Z3A20"), "Z3A");
    assert.equal(table.find("Z3800"), undefined);
    assert.equal(table.find("K5221"), "K52.2");
    assert.equal(table.find("K523"), undefined);
    assert.equal(table.find("A00"), undefined);
    assert.throws(() => rangeTable("N70-N98 N80"), /overlapping/);
  });

  it("knows sex- and age-specific diagnoses", () => {
    assert.deepEqual(diagnosisFacts("O800"), {
      sex: "FEMALE",
      sexBasis: "female-only range O00-O9A",
      minAge: 12,
      maxAge: 55,
      ageBasis: "maternity range O00-O9A",
    });
    assert.equal(diagnosisFacts("N400").sex, "MALE");
    assert.equal(diagnosisFacts("N400").minAge, 15);
    assert.equal(diagnosisFacts("D070").sex, "FEMALE");
    assert.equal(diagnosisFacts("D075").sex, "MALE");
    assert.equal(diagnosisFacts("N832").sex, "FEMALE");
    assert.deepEqual(diagnosisFacts("P599"), { minAge: 0, maxAge: 0, ageBasis: "newborn range P00-P96" });
    // liveborn infants are newborns of either sex
    assert.deepEqual(diagnosisFacts("Z3800"), { minAge: 0, maxAge: 0, ageBasis: "newborn range Z38" });
    assert.equal(diagnosisFacts("R620").maxAge, 17);
    assert.deepEqual(diagnosisFacts("E119"), {});
    assert.deepEqual(diagnosisFacts("J069"), {});
  });

  it("knows which diagnoses support dental, optical, formula and maternity services", () => {
    for (const code of ["K021", "K0530", "S025XXA", "Z012", "M2620"])
      assert.ok(isDentalDiagnosis(code), code);
    for (const code of ["H5213", "H40", "E11319", "Z0100", "S0510XA"]) assert.ok(isEyeDiagnosis(code), code);
    for (const code of ["P929", "R6251", "R633", "E43", "E849", "K5221", "Z00129"])
      assert.ok(isFeedingDiagnosis(code), code);
    for (const code of ["O800", "Z3400", "Z3A20", "Z370"]) assert.ok(isMaternityDiagnosis(code), code);
    for (const code of ["E119", "J069", "I10"]) {
      assert.ok(
        !isDentalDiagnosis(code) &&
          !isEyeDiagnosis(code) &&
          !isFeedingDiagnosis(code) &&
          !isMaternityDiagnosis(code),
      );
    }
    assert.ok(!isMaternityDiagnosis("Z3800"));
  });

  it("knows sex- and age-specific services by five-digit code", () => {
    assert.deepEqual(serviceFacts("55700", "55700", "Biopsy"), [
      { sex: "MALE", basis: "code 55700 (male genital system 54000-55899)" },
    ]);
    assert.deepEqual(serviceFacts("59400", "59400", "Routine care"), [
      {
        sex: "FEMALE",
        maternity: true,
        minAge: 12,
        maxAge: 55,
        basis: "code 59400 (maternity care and delivery 59000-59899)",
      },
    ]);
    assert.equal(serviceFacts("77067", "77067", "Screening")[0]?.sex, "FEMALE");
    assert.deepEqual(serviceFacts("77065", "77065", "Diagnostic mammography, unilateral"), []);
    assert.deepEqual(serviceFacts("99382", "99382", "Preventive visit"), [
      { minAge: 1, maxAge: 4, basis: "code 99382 (preventive visit, age 1-4)" },
    ]);
    // the provider's own code and the NPHIES code are both looked up
    assert.equal(serviceFacts("LAB-7", "84153", "Lab")[0]?.sex, "MALE");
    // SBS (ACHI-based) codes are another numbering: not looked up
    assert.deepEqual(serviceFacts("35653-04-00", "35653-04-00", "Procedure"), []);
  });

  it("reads sex- and age-specific services from the description", () => {
    const facts = (description: string) => serviceFacts("X1", "X1", description);
    assert.deepEqual(facts("Lower segment Caesarean section"), [
      { sex: "FEMALE", maternity: true, minAge: 12, maxAge: 55, basis: 'description "caesarean"' },
    ]);
    assert.deepEqual(facts("Pregnancy test, urine"), [
      { sex: "FEMALE", basis: 'description "pregnancy test"' },
    ]);
    assert.equal(facts("Total PSA")[0]?.sex, "MALE");
    assert.equal(facts("Circumcision, newborn")[0]?.sex, "MALE");
    assert.deepEqual(facts("Circumcision, newborn")[1], {
      minAge: 0,
      maxAge: 0,
      basis: 'description "newborn"',
    });
    assert.equal(facts("Pap smear")[0]?.sex, "FEMALE");
    assert.equal(facts("Total abdominal hysterectomy")[0]?.sex, "FEMALE");
    // words that merely contain a fragment do not count
    for (const text of [
      "Computer tomography, outer ear",
      "Cervical spine X-ray",
      "Hemoglobin A1c",
      "Capsule",
    ]) {
      assert.deepEqual(facts(text), [], text);
    }
  });
});

describe("figures", () => {
  it("parses durations in days", () => {
    const cases: [string | null, number | null][] = [
      ["7", 7],
      ["7 days", 7],
      ["10 d", 10],
      ["1 day", 1],
      ["2 weeks", 14],
      ["3 wk", 21],
      ["1 month", 30],
      ["1.5 months", 45],
      ["1 year", 365],
      [" 5 Days ", 5],
      ["0", null],
      ["a week", null],
      ["7 days twice", null],
      ["", null],
      [null, null],
    ];
    for (const [text, days] of cases) assert.equal(parseDurationDays(text), days, String(text));
  });

  it("formats halalas as riyals exactly", () => {
    assert.equal(sar(0), "0.00");
    assert.equal(sar(5), "0.05");
    assert.equal(sar(120_000), "1,200.00");
    assert.equal(sar(123_456_789), "1,234,567.89");
    assert.equal(sar(-150), "-1.50");
  });
});
