import { BlockList, isIP, isIPv4 } from "node:net";

/**
 * Which addresses webhook targets may be: public ones, and the non-public ranges an operator names in
 * MIZAN_WEBHOOK_ALLOW_PRIVATE. Kept free of other imports: the configuration reads its ranges with it.
 */

/** IPv4 space that is not the public internet (RFC 6890 and its successors) */
const NON_PUBLIC_V4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relays
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  NON_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
}

/** the eight 16-bit words of an IPv6 address (a zone and an embedded dotted IPv4 tail are understood) */
function wordsOf(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const part = (words: string) =>
    words === "" ? [] : words.split(":").map((word) => Number.parseInt(word, 16));
  const head = part(halves[0] ?? "");
  const tail = halves.length === 2 ? part(halves[1] ?? "") : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return undefined;
  const words = [...head, ...new Array<number>(Math.max(missing, 0)).fill(0), ...tail];
  return words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : undefined;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one reaches or carries: IPv4-mapped ::ffff:a.b.c.d (and ::ffff:0:a.b.c.d),
 * NAT64 64:ff9b::a.b.c.d and 6to4 2002:aabb:ccdd::. Undefined for any other address.
 */
export function embeddedIPv4(words: readonly number[]): string | undefined {
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  const [w0 = 0, w1 = 0, w2 = 0, , w4 = 0, w5 = 0, w6 = 0, w7 = 0] = words;
  if (zeros(0, 5) && w5 === 0xffff) return v4Of(w6, w7);
  if (zeros(0, 4) && w4 === 0xffff && w5 === 0) return v4Of(w6, w7);
  if (w0 === 0x64 && w1 === 0xff9b && zeros(2, 6)) return v4Of(w6, w7);
  if (w0 === 0x2002) return v4Of(w1, w2);
  return undefined;
}

/** IPv6 space inside global unicast (2000::/3) that is still not the public internet */
const SPECIAL_V6 = new BlockList();
for (const [network, prefix] of [
  ["2001::", 32], // Teredo: a tunnel whose far end cannot be checked
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // ORCHID
  ["2001:20::", 28], // ORCHIDv2
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
] as const) {
  SPECIAL_V6.addSubnet(network, prefix, "ipv6");
}

/**
 * Whether an address is outside the public internet. IPv6 is public only inside global unicast
 * (2000::/3): loopback, unspecified, unique-local, link-local, multicast and IPv4-compatible forms are
 * not; forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address. Anything
 * that is not an address at all counts as non-public.
 */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ""));
  if (family === 4) return NON_PUBLIC_V4.check(address, "ipv4");
  if (family !== 6) return true;
  const words = wordsOf(address);
  if (words === undefined) return true;
  const carried = embeddedIPv4(words);
  if (carried !== undefined) return NON_PUBLIC_V4.check(carried, "ipv4");
  if ((words[0] ?? 0) >> 13 !== 1) return true;
  return SPECIAL_V6.check(canonicalV6(words), "ipv6");
}

const canonicalV6 = (words: readonly number[]) => words.map((word) => word.toString(16)).join(":");

/** MIZAN_WEBHOOK_ALLOW_PRIVATE as read: CIDR ranges, `*` being every address */
export type AllowedRanges = readonly string[];
export const EVERY_ADDRESS: AllowedRanges = ["0.0.0.0/0", "::/0"];

/**
 * Reads a comma-separated list of CIDR ranges (a bare address is a range of one; `*` is everything).
 * Returns the ranges in normal form, or the entries that are not ranges.
 */
export function parseAllowedRanges(raw: string): { ranges: string[]; invalid: string[] } {
  const ranges: string[] = [];
  const invalid: string[] = [];
  for (const entry of raw
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")) {
    if (entry === "*") {
      ranges.push(...EVERY_ADDRESS);
      continue;
    }
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (family === 0 || extra !== undefined || length < 0 || length > bits) invalid.push(entry);
    else ranges.push(`${address}/${length}`);
  }
  return { ranges, invalid };
}

/** answers whether an operator allowed an address; built once per list of ranges */
const allowLists = new Map<string, BlockList>();
function allowListOf(ranges: AllowedRanges): BlockList {
  const key = ranges.join(",");
  let list = allowLists.get(key);
  if (list === undefined) {
    list = new BlockList();
    for (const range of ranges) {
      const [address = "", prefix = ""] = range.split("/");
      list.addSubnet(address, Number(prefix), isIPv4(address) ? "ipv4" : "ipv6");
    }
    allowLists.set(key, list);
  }
  return list;
}

/**
 * Whether a webhook target may be at this address: a public one, or one inside the operator's allowed
 * ranges (an IPv6 form that carries an IPv4 address is allowed when that address is).
 */
export function isPermittedAddress(address: string, allowed: AllowedRanges): boolean {
  if (!isNonPublicAddress(address)) return true;
  if (allowed.length === 0) return false;
  const list = allowListOf(allowed);
  const bare = address.replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return list.check(bare, "ipv4");
  if (family !== 6) return false;
  const words = wordsOf(bare);
  if (words === undefined) return false;
  const carried = embeddedIPv4(words);
  return list.check(canonicalV6(words), "ipv6") || (carried !== undefined && list.check(carried, "ipv4"));
}
