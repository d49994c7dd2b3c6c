import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Where webhook targets may point. By default anywhere (an insurer's own systems are often internal);
 * with MIZAN_WEBHOOK_DENY_PRIVATE=1 nothing that resolves to loopback, private, link-local or otherwise
 * non-public space, checked at registration and again on every connection (a name may re-resolve).
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return NON_PUBLIC.check(mapped, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return NON_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** a URL's host without the brackets of an IPv6 literal */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** why a webhook URL may not be a target, or undefined when it may */
export async function targetAddressProblem(url: URL, denyPrivate: boolean): Promise<string | undefined> {
  if (!denyPrivate) return undefined;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return `host ${host} cannot be resolved`;
  }
  const refused = addresses.find(isNonPublicAddress);
  return refused === undefined
    ? undefined
    : `resolves to ${refused}, a loopback or private address (MIZAN_WEBHOOK_DENY_PRIVATE is on)`;
}
