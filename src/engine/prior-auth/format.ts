/** How figures read in reasons, alerts and the note: riyals with two decimals and thousands separators. */

/** "1,234.50" of 123450 halalas; exact, no floating point */
export function sar(halalas: number): string {
  if (!Number.isFinite(halalas)) return "unlimited";
  const sign = halalas < 0 ? "-" : "";
  const abs = Math.abs(Math.round(halalas));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${whole}.${(abs % 100).toString().padStart(2, "0")}`;
}

/** "1 unit", "3 units" */
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
