/**
 * Calendar arithmetic of the engine, in UTC days: a request's dates are instants, but coverage, ages, windows
 * and durations are counted in whole days, so every comparison goes through the UTC calendar date.
 */
import type { Frequency } from "./types.js";

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of an instant (UTC) */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** YYYY-MM-DD of a DATE or DATETIME text as stored ("2025-01-31" or "2025-01-31T00:00:00.000Z") */
export const dayOfText = (text: string): string => text.slice(0, 10);

/** whole UTC days from `earlier` to `later` (negative when `earlier` is later) */
export function daysBetween(earlier: Date, later: Date): number {
  const start = Date.UTC(earlier.getUTCFullYear(), earlier.getUTCMonth(), earlier.getUTCDate());
  const end = Date.UTC(later.getUTCFullYear(), later.getUTCMonth(), later.getUTCDate());
  return Math.round((end - start) / DAY_MS);
}

/** completed years of age on a date; negative when born after it */
export function ageAt(dateOfBirth: Date, on: Date): number {
  const years = on.getUTCFullYear() - dateOfBirth.getUTCFullYear();
  const birthdayPassed =
    on.getUTCMonth() > dateOfBirth.getUTCMonth() ||
    (on.getUTCMonth() === dateOfBirth.getUTCMonth() && on.getUTCDate() >= dateOfBirth.getUTCDate());
  return birthdayPassed ? years : years - 1;
}

const UNIT_DAYS: Record<string, number> = { d: 1, w: 7, m: 30, y: 365 };

/**
 * Days of a free-text duration: "7", "7 days", "10 d", "2 weeks", "2 wk", "1 month", "1.5 months", "1 year".
 * A month counts 30 days, as prescriptions do. null when the text says nothing countable (or zero days).
 */
export function parseDurationDays(text: string | null): number | null {
  if (text === null) return null;
  const match = /^(\d+(?:\.\d+)?)\s*(d|days?|w|wks?|weeks?|mo|mons?|months?|y|yrs?|years?)?\.?$/i.exec(
    text.trim(),
  );
  if (match === null) return null;
  const unit = (match[2] ?? "d").toLowerCase();
  const days = Math.ceil(
    Number(match[1]) * (UNIT_DAYS[unit.startsWith("mo") ? "m" : (unit[0] as string)] ?? 1),
  );
  return days > 0 && Number.isFinite(days) ? days : null;
}

/**
 * Doses a day of each frequency. QM is read as "every morning" (quaque mane), once a day: the reading that
 * allows more, so an ambiguous code never cuts a prescription on its own.
 */
export const DOSES_PER_DAY: Record<Frequency, number> = {
  OD: 1,
  QD: 1,
  Q24H: 1,
  QM: 1,
  BID: 2,
  Q12H: 2,
  TID: 3,
  Q8H: 3,
  QID: 4,
  Q6H: 4,
  Q4H: 6,
  QOD: 0.5,
};
