import { readMessage } from "./context.js";
import { codings, isObject, type JsonObject, str } from "./json.js";

/**
 * The element paths of a resource, without indexes or values: `ClaimResponse.item.adjudication.amount`;
 * extensions are named by url (`ClaimResponse.extension[<url>].valueCodeableConcept`) and categories by
 * their codings (`ClaimResponse.item.adjudication.category[<system>#<code>]`), since those are structure.
 */
export function elementPaths(resource: JsonObject): Set<string> {
  const paths = new Set<string>();
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, path);
      return;
    }
    paths.add(path);
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === "resourceType") continue;
      if (key === "extension" || key === "modifierExtension") {
        for (const ext of Array.isArray(child) ? child : []) {
          if (isObject(ext)) walk(ext, `${path}.${key}[${str(ext.url) ?? "?"}]`);
        }
      } else if (key === "category" && codings(firstOf(child)).length > 0) {
        for (const category of Array.isArray(child) ? child : [child]) {
          for (const coding of codings(category))
            walk(category, `${path}.category[${str(coding.system)}#${str(coding.code)}]`);
        }
      } else walk(child, `${path}.${key}`);
    }
  };
  walk(resource, str(resource.resourceType) ?? "Resource");
  return paths;
}

const firstOf = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

/** an allowed path covers itself and everything below it */
const covered = (path: string, allow: readonly string[]) =>
  allow.some(
    (allowed) => path === allowed || path.startsWith(`${allowed}.`) || path.startsWith(`${allowed}[`),
  );

/**
 * The element paths of the pack's message (`theirs`) that ours lacks, for the MessageHeader and the focal
 * resource: structure only (values, ids and order differ). `allow` lists paths (and what is below them)
 * the pack has that ours may leave out for good reasons.
 */
export function shapeDifferences(ours: unknown, theirs: unknown, allow: readonly string[] = []): string[] {
  const mine = readMessage(ours);
  const pack = readMessage(theirs);
  const missing: string[] = [];
  for (const pick of [(m: typeof mine) => m.header, (m: typeof mine) => m.focal]) {
    const theirResource = pick(pack);
    if (!theirResource) continue;
    const ourResource = pick(mine);
    const have = ourResource ? elementPaths(ourResource) : new Set<string>();
    for (const path of elementPaths(theirResource)) {
      if (!have.has(path) && !covered(path, allow)) missing.push(path);
    }
  }
  return missing.sort();
}
