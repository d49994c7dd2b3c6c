import { type Ctx, resourcesOf } from "./context.js";
import { codings, isObject, type Node, select, str } from "./json.js";

export interface Violation {
  rule: string;
  path: string;
  message: string;
}

export interface Rule {
  id: string;
  applies: (ctx: Ctx) => boolean;
  check: (ctx: Ctx) => Violation[];
}

type When = (ctx: Ctx) => boolean;

/** the resource type a rule path starts with, and the rest of the path */
function split(path: string): [string, string] {
  const dot = path.indexOf(".");
  return dot < 0 ? [path, ""] : [path.slice(0, dot), path.slice(dot + 1)];
}

/** the nodes a rule path designates in the response message */
export const nodesAt = (ctx: Ctx, path: string): Node[] => {
  const [type, rest] = split(path);
  return resourcesOf(ctx.response, type).flatMap((root) => select(root, rest));
};

const present = (ctx: Ctx, type: string) => resourcesOf(ctx.response, type).length > 0;

/** cardinality (IC): below every parent of the element, between min and max occurrences */
export function card(id: string, path: string, min: number, max: number, when?: When): Rule {
  const [type, rest] = split(path);
  const parentPath = rest.split(".").slice(0, -1).join(".");
  const element = rest.split(".").pop() ?? "";
  return {
    id,
    applies: (ctx) => present(ctx, type) && (when?.(ctx) ?? true),
    check: (ctx) =>
      resourcesOf(ctx.response, type)
        .flatMap((root) => select(root, parentPath))
        .flatMap((parent) => {
          const count = select(parent, element).length;
          if (count >= min && count <= max) return [];
          const range = `${min}..${max === Number.POSITIVE_INFINITY ? "*" : max}`;
          return [
            {
              rule: id,
              path: `${parent.path}.${element}`,
              message: `${count} occurrence(s), expected ${range}`,
            },
          ];
        }),
  };
}

export const required = (id: string, path: string, when?: When) => card(id, path, 1, 1, when);

/**
 * binding (IB): a code element's value is a code of one of the systems; a Coding / CodeableConcept has a
 * coding in one of the systems whose code the system lists. Systems the pack does not enumerate are
 * only checked for the system itself.
 */
export function bind(id: string, path: string, systems: string[], when?: When): Rule {
  const [type] = split(path);
  return {
    id,
    applies: (ctx) => present(ctx, type) && (when?.(ctx) ?? true),
    check: (ctx) =>
      nodesAt(ctx, path).flatMap((node) => {
        const message = bindingProblem(ctx, node.value, systems);
        return message ? [{ rule: id, path: node.path, message }] : [];
      }),
  };
}

function bindingProblem(ctx: Ctx, value: unknown, systems: string[]): string | undefined {
  const known = (system: string, code: string) => ctx.terminology.get(system)?.has(code) ?? true;
  if (typeof value === "string") {
    const listed = systems.filter((system) => ctx.terminology.has(system));
    return listed.length === 0 || listed.some((system) => known(system, value))
      ? undefined
      : `"${value}" is not a code of ${systems.join(" or ")}`;
  }
  const bound = codings(value).filter((coding) => systems.includes(str(coding.system) ?? ""));
  if (bound.length === 0) {
    const found = codings(value).map((coding) => `${str(coding.system)}#${str(coding.code)}`);
    return `no coding from ${systems.join(" or ")} (found ${found.join(", ") || "none"})`;
  }
  const unknown = bound.find((coding) => !known(str(coding.system) ?? "", str(coding.code) ?? ""));
  return unknown ? `"${str(unknown.code)}" is not a code of ${str(unknown.system)}` : undefined;
}

/** a rule written by hand for one resource type */
export function rule(id: string, type: string, check: (ctx: Ctx) => Violation[], when?: When): Rule {
  return { id, applies: (ctx) => present(ctx, type) && (when?.(ctx) ?? true), check };
}

/** a violation at a node, or none */
export const fail = (id: string, path: string, message: string): Violation[] => [{ rule: id, path, message }];

/** the root node of the single resource of a type in the response (its path is the type) */
export const rootOf = (ctx: Ctx, type: string): Node | undefined =>
  resourcesOf(ctx.response, type).find((node) => isObject(node.value));

/** "on or before the date received": not after now (the checker runs when the message is sent) */
export function notFuture(id: string, path: string, value: unknown): Violation[] {
  const time = Date.parse(str(value) ?? "");
  return Number.isFinite(time) && time > Date.now() + 86_400_000
    ? fail(id, path, `${str(value)} is in the future`)
    : [];
}
