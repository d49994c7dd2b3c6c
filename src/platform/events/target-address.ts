import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { refusal } from "../http/errors.js";
import { secretProblem } from "./signature.js";

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

/**
 * The target a webhook or a claims subscription may have (`webhook_url` in both): an absolute http(s) URL
 * without credentials, on a public address when so configured, and a usable secret (400 naming the fields
 * otherwise).
 */
export async function checkTarget(
  target: { url: string; secret: string | null; secretField: string },
  denyPrivate: boolean,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw refusal("E_BAD_REQUEST_400", ["webhook_url must be an absolute http or https URL"]);
  }
  const problems: string[] = [];
  if (url.protocol !== "http:" && url.protocol !== "https:")
    problems.push("webhook_url must be an http or https URL");
  else if (url.username !== "" || url.password !== "")
    problems.push(`webhook_url must not carry credentials (sign with ${target.secretField} instead)`);
  else {
    const addressProblem = await targetAddressProblem(url, denyPrivate);
    if (addressProblem !== undefined) problems.push(`webhook_url ${addressProblem}`);
  }
  const secretIssue = target.secret === null ? undefined : secretProblem(target.secret);
  if (secretIssue !== undefined) problems.push(`${target.secretField}: ${secretIssue}`);
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
}
