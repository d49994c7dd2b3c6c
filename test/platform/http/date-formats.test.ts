import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isDate, isDateTime } from "../../../src/platform/http/validation.js";

// the checks as first written, through a Date: the oracle of the counted ones
const calendarThen = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};
const dateThen = (value: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && calendarThen(Number(match[1]), Number(match[2]), Number(match[3]));
};
const dateTimeThen = (value: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)\.\d{3}Z$/.exec(value);
  return match !== null && calendarThen(Number(match[1]), Number(match[2]), Number(match[3]));
};

describe("the spec's DATE and DATETIME formats", () => {
  it("accept real calendar days and refuse the rest", () => {
    assert.equal(isDate("2024-02-29"), true);
    assert.equal(isDate("2023-02-29"), false);
    assert.equal(isDate("2000-02-29"), true);
    assert.equal(isDate("1900-02-29"), false);
    assert.equal(isDate("2024-04-31"), false);
    assert.equal(isDate("2024-1-01"), false);
    assert.equal(isDate("2024-01-01 "), false);
    assert.equal(isDateTime("2024-12-31T23:59:59.999Z"), true);
    assert.equal(isDateTime("2024-12-31T24:00:00.000Z"), false);
    assert.equal(isDateTime("2024-11-31T10:00:00.000Z"), false);
    assert.equal(isDateTime("2024-12-31T10:00:00Z"), false);
  });

  it("judge every text as the Date-based check did", () => {
    const texts = ["0099-12-31", "0100-01-01", "9999-12-31", "2024-00-10", "2024-13-01", "2024-01-00"];
    texts.push("２０２４-01-01", "2024-01-01\n", "2024/01/01", "-024-01-01", "2024-0a-01", "");
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const two = (n: number) => String(n).padStart(2, "0");
    for (let i = 0; i < 20_000; i += 1) {
      const year = String([random(10_000), 1900 + random(200)][i % 2]).padStart(4, "0");
      texts.push(`${year}-${two(random(14))}-${two(random(33))}`);
    }
    for (const date of texts.slice()) {
      texts.push(`${date}T${two(random(26))}:${two(random(61))}:${two(random(61))}.${random(1000)}Z`);
      texts.push(`${date}T12:00:00.000Z`);
    }
    for (const text of texts) {
      assert.equal(isDate(text), dateThen(text), JSON.stringify(text));
      assert.equal(isDateTime(text), dateTimeThen(text), JSON.stringify(text));
    }
  });
});
