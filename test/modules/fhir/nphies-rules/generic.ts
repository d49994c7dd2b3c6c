import type { Ctx } from "./context.js";
import { DATA_TYPES } from "./datatypes.js";
import { codings, isObject, type Node, str } from "./json.js";
import { fail, nodesAt, type Rule } from "./rule.js";

/** the nodes of every DT-table element of a FHIR type, in the response */
const ofType = (ctx: Ctx, ...types: string[]): Node[] =>
  DATA_TYPES.filter(([, , type]) => types.includes(type)).flatMap(([, path]) => nodesAt(ctx, path));

/** a string property of the nodes of a type longer than `max` */
const maxLength = (id: string, types: string[], max: number, read: (value: unknown) => unknown[]): Rule => ({
  id,
  applies: () => true,
  check: (ctx) =>
    ofType(ctx, ...types).flatMap((node) =>
      read(node.value).flatMap((text) =>
        (str(text)?.length ?? 0) > max ? fail(id, node.path, `longer than ${max} characters`) : [],
      ),
    ),
});

const self = (value: unknown) => [value];
const field = (key: string) => (value: unknown) => (isObject(value) ? [value[key]] : []);

/** every extension object below the focal resource and the header */
function extensions(ctx: Ctx): Node[] {
  const found: Node[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`);
    } else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key === "extension")
          for (const [i, ext] of (Array.isArray(child) ? child : []).entries())
            found.push({ path: `${path}.extension[${i}]`, value: ext });
        walk(child, `${path}.${key}`);
      }
    }
  };
  for (const resource of [ctx.response.header, ctx.response.focal])
    if (resource) walk(resource, str(resource.resourceType) ?? "");
  return found;
}

export const GENERIC_RULES: Rule[] = [
  {
    id: "BV-00052",
    applies: () => true,
    check: (ctx) =>
      ofType(ctx, "Period").flatMap((node) => {
        const start = isObject(node.value) ? str(node.value.start) : undefined;
        const end = isObject(node.value) ? str(node.value.end) : undefined;
        return start && end && end.slice(0, 10) < start.slice(0, 10)
          ? fail("BV-00052", node.path, `ends ${end} before it starts ${start}`)
          : [];
      }),
  },
  // an extension has a value or nested extensions, not both and not neither
  ...["BV-00389", "FR-00019", "FR-00006"].map(
    (id): Rule => ({
      id,
      applies: () => true,
      check: (ctx) =>
        extensions(ctx).flatMap((node) => {
          const ext = isObject(node.value) ? node.value : {};
          const hasValue = Object.keys(ext).some((key) => key.startsWith("value"));
          const nested = Array.isArray(ext.extension) && ext.extension.length > 0;
          return hasValue !== nested
            ? []
            : fail(
                id,
                node.path,
                hasValue ? "both a value and extensions" : "neither a value nor extensions",
              );
        }),
    }),
  ),
  {
    id: "BV-00526",
    applies: () => true,
    check: (ctx) =>
      ofType(ctx, "CodeableConcept").flatMap((node) => {
        const systems = codings(node.value).map((coding) => str(coding.system));
        return new Set(systems).size === systems.length
          ? []
          : fail("BV-00526", node.path, "a coding system repeats");
      }),
  },
  // amounts are rounded to the hundredth
  {
    id: "GE-00028",
    applies: () => true,
    check: (ctx) =>
      ofType(ctx, "Money").flatMap((node) => {
        const value = isObject(node.value) ? node.value.value : undefined;
        return typeof value === "number" && Math.abs(value * 100 - Math.round(value * 100)) > 1e-6
          ? fail("GE-00028", node.path, `${value} has more than two decimals`)
          : [];
      }),
  },
  maxLength("BV-00263", ["instant"], 29, self),
  maxLength("BV-00264", ["date"], 10, self),
  maxLength("BV-00265", ["dateTime"], 29, self),
  maxLength("BV-00272", ["positiveInt"], 11, (value) => [String(value)]),
  maxLength("BV-00275", ["Identifier"], 100, field("value")),
  maxLength("BV-00277", ["CodeableConcept"], 250, field("text")),
  maxLength("BV-00278", ["Coding", "CodeableConcept"], 100, (value) =>
    codings(value).map((coding) => coding.version),
  ),
  maxLength("BV-00279", ["Coding", "CodeableConcept"], 100, (value) =>
    codings(value).map((coding) => coding.display),
  ),
  maxLength("BV-00305", ["Reference"], 250, field("reference")),
  maxLength("BV-00306", ["Reference"], 200, field("display")),
];
