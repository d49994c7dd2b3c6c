import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ageOn,
  civilFromDays,
  dayOfText,
  daysFromCivil,
  isoOfDay,
} from "../../../../src/engine/fwa/columns/days.js";
import { NO_DATE } from "../../../../src/engine/fwa/types.js";

describe("fwa days", () => {
  it("reads DATE and DATETIME texts as UTC days, like Date.UTC", () => {
    for (const text of ["1970-01-01", "2000-02-29", "1899-12-31", "2026-03-10", "2100-03-01", "0001-01-01"]) {
      assert.equal(dayOfText(text), Date.parse(`${text}T00:00:00.000Z`) / 86_400_000, text);
      assert.equal(isoOfDay(dayOfText(text)), text);
    }
    assert.equal(dayOfText("2026-03-10T23:59:59.999Z"), dayOfText("2026-03-10"));
    assert.equal(dayOfText(undefined), NO_DATE);
    assert.equal(dayOfText("2026-3-10"), NO_DATE);
    assert.equal(dayOfText("2026-03-1x"), NO_DATE);
    assert.equal(isoOfDay(NO_DATE), "none");
  });

  it("round-trips every day of four centuries", () => {
    const from = daysFromCivil(1900, 1, 1);
    for (let day = from; day < from + 146_097; day += 1) {
      const [y, m, d] = civilFromDays(day);
      assert.equal(daysFromCivil(y, m, d), day);
    }
  });

  it("counts completed years, 29 February birthdays on 1 March", () => {
    assert.equal(ageOn(dayOfText("1980-05-20"), dayOfText("2026-05-19")), 45);
    assert.equal(ageOn(dayOfText("1980-05-20"), dayOfText("2026-05-20")), 46);
    assert.equal(ageOn(dayOfText("2000-02-29"), dayOfText("2001-02-28")), 0);
    assert.equal(ageOn(dayOfText("2000-02-29"), dayOfText("2001-03-01")), 1);
    assert.equal(ageOn(dayOfText("2026-03-11"), dayOfText("2026-03-10")), -1);
    assert.ok(Number.isNaN(ageOn(NO_DATE, dayOfText("2026-03-10"))));
  });
});
