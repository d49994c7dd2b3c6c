import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { refusal } from "../http/errors.js";
import { type AllowedRanges, isPermittedAddress } from "./address-ranges.js";
import { secretProblem } from "./signature.js";

/** resolves a host name to every address it has (dns.lookup by default; tests give their own) */
export type Resolve = (host: string) => Promise<string[]>;

export const systemResolve: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** registration does not wait longer than this on DNS: the name is checked again at every connection */
const REGISTRATION_LOOKUP_MS = 3_000;

/** a URL's host without the brackets of an IPv6 literal (the URL parser already wrote any IPv4 as a.b.c.d) */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** what the tenant is told, naming neither the address nor the ranges, which are the operator's business */
export const NOT_PUBLIC = "points to a loopback, private or otherwise non-public address";

/**
 * Why a webhook URL may not be a target, or undefined when it may: its host is, or resolves to, an
 * address outside the public internet and outside the operator's allowed ranges. A name that does not
 * resolve now is let through (it may be set up later): every connection checks again.
 */
export async function targetAddressProblem(
  url: URL,
  allowed: AllowedRanges,
  resolve: Resolve = systemResolve,
): Promise<string | undefined> {
  const host = hostOf(url);
  if (isIP(host)) return isPermittedAddress(host, allowed) ? undefined : NOT_PUBLIC;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    resolve(host).catch(() => [] as string[]),
    new Promise<string[]>((done) => {
      timer = setTimeout(() => done([]), REGISTRATION_LOOKUP_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  return addresses.every((address) => isPermittedAddress(address, allowed)) ? undefined : NOT_PUBLIC;
}

/**
 * The target a webhook or a claims subscription may have (`webhook_url` in both): an absolute http(s) URL
 * without credentials, on a public address or one the operator allowed, and a usable secret (400 naming
 * the fields otherwise).
 */
export async function checkTarget(
  target: { url: string; secret: string | null; secretField: string },
  allowed: AllowedRanges,
  resolve?: Resolve,
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
    const addressProblem = await targetAddressProblem(url, allowed, resolve);
    if (addressProblem !== undefined) problems.push(`webhook_url ${addressProblem}`);
  }
  const secretIssue = target.secret === null ? undefined : secretProblem(target.secret);
  if (secretIssue !== undefined) problems.push(`${target.secretField}: ${secretIssue}`);
  if (problems.length > 0) throw refusal("E_BAD_REQUEST_400", problems);
}
