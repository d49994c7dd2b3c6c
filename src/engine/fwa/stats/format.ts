/** The number formats of causes and reasons: counts, money, numbers, ratios, shares. */

import { groupThousands as grouped } from "../../prior-auth/format.js";

/** a whole count with thousands separators: 1214 -> "1,214" */
export function count(n: number): string {
  const rounded = Math.round(n);
  return rounded < 0 ? `-${grouped(String(-rounded))}` : grouped(String(rounded));
}

/** SAR of halalas with thousands separators: 420000 -> "4,200.00" (the prior-authorization reasons' format) */
export { sar as money } from "../../prior-auth/format.js";

/** "2.50" -> "2.5", "3.00" -> "3": the decimals' trailing zeros, and the point when nothing follows it */
function withoutTrailingZeros(fixed: string): string {
  let end = fixed.length;
  while (end > 0 && fixed.charCodeAt(end - 1) === 48) end -= 1;
  if (end > 0 && fixed.charCodeAt(end - 1) === 46) end -= 1;
  return fixed.slice(0, end);
}

/** a number with up to `digits` decimals, trailing zeros dropped: 2.50 -> "2.5", 3 -> "3" */
export function num(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return String(value);
  const fixed = value.toFixed(digits);
  const trimmed = fixed.includes(".") ? withoutTrailingZeros(fixed) : fixed;
  const dot = trimmed.indexOf(".");
  const whole = dot < 0 ? trimmed : trimmed.slice(0, dot);
  const negative = whole.startsWith("-");
  const digitsText = grouped(negative ? whole.slice(1) : whole);
  return `${negative ? "-" : ""}${digitsText}${dot < 0 ? "" : trimmed.slice(dot)}`;
}

/** a ratio as "12.4" (one decimal; two below 10 when it would read 1.0) */
export const times = (ratio: number): string => (ratio < 10 ? num(ratio, 2) : num(ratio, 1));

/** a share as a percentage: 0.823 -> "82%" (one decimal below 10%) */
export const percent = (share: number): string =>
  share < 0.1 && share > 0 ? `${num(share * 100, 1)}%` : `${Math.round(share * 100)}%`;
