/**
 * Money is exact: NUMERIC(14,2) in the database (read as text) and whole halalas (1/100 riyal) in code,
 * so sums never pass through binary floating point. JSON carries riyals as numbers.
 */

/** halalas of a NUMERIC text or a JSON number with at most two decimals */
export function halalasOf(amount: string | number): number {
  const text = typeof amount === "number" ? amount.toFixed(2) : amount;
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (match === null) throw new Error(`not an amount of money: ${text}`);
  const [, sign, whole, fraction = ""] = match;
  const halalas = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return sign === "-" ? -halalas : halalas;
}

/** riyals as a JSON number (exact to two decimals when printed) */
export function riyalsOf(halalas: number): number {
  return Number((halalas / 100).toFixed(2));
}

/** a NUMERIC text or null as a JSON number or null */
export function amountOrNull(amount: string | null): number | null {
  return amount === null ? null : riyalsOf(halalasOf(amount));
}

/** halalas as NUMERIC text with two decimals (what the database stores) */
export function decimalOf(halalas: number): string {
  const sign = halalas < 0 ? "-" : "";
  const abs = Math.abs(halalas);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
