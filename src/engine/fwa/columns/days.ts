/**
 * Calendar days of the FWA analysis: whole UTC days since 1970-01-01, read straight from the DATE
 * (`YYYY-MM-DD`) and DATETIME (`YYYY-MM-DDTHH:mm:ss.sssZ`) texts a batch carries, without Date objects
 * (a million items would otherwise allocate a million of them). A DATETIME counts by its UTC calendar day.
 * The conversions are Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian calendar).
 */
import { NO_DATE } from "../types.js";

/** days since 1970-01-01 of a proleptic Gregorian date (month 1-12) */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** year, month (1-12) and day of a day number */
export function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** character positions of the digits in `YYYY-MM-DD` */
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9] as const;

/**
 * The day of a DATE or DATETIME text (only its first ten characters are read); NO_DATE when the text is
 * absent or does not start with `DDDD-DD-DD`. The batch was validated before, so the calendar itself is
 * not checked again here.
 */
export function dayOfText(text: string | undefined): number {
  if (text === undefined || text.length < 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) {
    return NO_DATE;
  }
  for (let k = 0; k < DIGITS.length; k += 1) {
    if ((text.charCodeAt(DIGITS[k] as number) - 48) >>> 0 > 9) return NO_DATE;
  }
  const year =
    (text.charCodeAt(0) - 48) * 1000 +
    (text.charCodeAt(1) - 48) * 100 +
    (text.charCodeAt(2) - 48) * 10 +
    text.charCodeAt(3) -
    48;
  const month = (text.charCodeAt(5) - 48) * 10 + text.charCodeAt(6) - 48;
  return daysFromCivil(year, month, (text.charCodeAt(8) - 48) * 10 + text.charCodeAt(9) - 48);
}

const pad = (value: number, width: number): string => String(value).padStart(width, "0");

/** `YYYY-MM-DD` of a day number; "none" for NO_DATE (causes only) */
export function isoOfDay(days: number): string {
  if (days === NO_DATE) return "none";
  const [year, month, day] = civilFromDays(days);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * Completed years of age on a day, born on another; negative when born after it, and NaN when either is
 * NO_DATE. A 29 February birthday is reached on 1 March in common years (as the prior-auth engine counts).
 */
export function ageOn(born: number, on: number): number {
  if (born === NO_DATE || on === NO_DATE) return Number.NaN;
  const [by, bm, bd] = civilFromDays(born);
  const [y, m, d] = civilFromDays(on);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
