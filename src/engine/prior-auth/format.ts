/** How figures read in reasons, alerts and the note: riyals with two decimals and thousands separators. */

/**
 * Digits with a comma before each group of three from the right: "1234567" -> "1,234,567". Written out, not
 * as a regular expression's lookahead: the batch's rankings format some millions of figures.
 */
export function groupThousands(digits: string): string {
  const n = digits.length;
  if (n <= 3) return digits;
  for (let i = 0; i < n; i += 1) {
    const code = digits.charCodeAt(i);
    // not a run of digits ("Infinity", "1e+21"): nothing to group
    if (code < 48 || code > 57) return digits;
  }
  const head = n % 3 || 3;
  let text = digits.slice(0, head);
  for (let i = head; i < n; i += 3) text += `,${digits.slice(i, i + 3)}`;
  return text;
}

/** "1,234.50" of 123450 halalas; exact, no floating point */
export function sar(halalas: number): string {
  if (!Number.isFinite(halalas)) return "unlimited";
  const sign = halalas < 0 ? "-" : "";
  const abs = Math.abs(Math.round(halalas));
  const whole = groupThousands(Math.floor(abs / 100).toString());
  return `${sign}${whole}.${(abs % 100).toString().padStart(2, "0")}`;
}

/** "1 unit", "3 units" */
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
