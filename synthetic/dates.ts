/** Dates of the generator: days since 1970-01-01 (UTC), written YYYY-MM-DD. */
import { dayOfText, isoOfDay } from "../src/engine/fwa/columns/days.js";
import { NO_DATE } from "../src/engine/fwa/types.js";

const dateTexts = new Map<number, string>();
/** YYYY-MM-DD (cached: a batch writes the same few days millions of times) */
export function dateText(day: number): string {
  let text = dateTexts.get(day);
  if (text === undefined) {
    text = isoOfDay(day);
    dateTexts.set(day, text);
  }
  return text;
}

/** the day of a YYYY-MM-DD option; throws naming the option when it is not a real date */
export function parseDay(text: string, what: string): number {
  const day = dayOfText(text);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || day === NO_DATE || dateText(day) !== text)
    throw new Error(`${what} must be a date YYYY-MM-DD`);
  return day;
}

/** HH:mm:00.000Z of a minute of the day */
export const clock = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00.000Z`;
