import { type Ctx, type Message, resourcesOf } from "./context.js";
import { isObject, type Node, str } from "./json.js";
import { nodesAt, type Rule } from "./rule.js";

/**
 * RE rules: the element is a Reference; a literal `reference` resolves to a fullUrl of the bundle
 * (logical references by identifier are allowed: NPHIES uses them for licences and requests).
 */
export function reference(id: string, path: string): Rule {
  const type = path.split(".")[0] ?? "";
  return {
    id,
    applies: (ctx) => resourcesOf(ctx.response, type).length > 0,
    check: (ctx) =>
      nodesAt(ctx, path).flatMap((node) => {
        const problem = referenceProblem(ctx.response, node.value);
        return problem ? [{ rule: id, path: node.path, message: problem }] : [];
      }),
  };
}

export function referenceProblem(message: Message, value: unknown): string | undefined {
  if (!isObject(value)) return "not a Reference";
  const url = str(value.reference);
  if (url === undefined) return isObject(value.identifier) ? undefined : "neither reference nor identifier";
  return message.entries.has(url) ? undefined : `${url} is not the fullUrl of an entry of the bundle`;
}

/** every literal reference anywhere in the resources of the message, with its location */
export function allReferences(ctx: Ctx): Node[] {
  const found: Node[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`);
    } else if (isObject(value)) {
      if (typeof value.reference === "string") found.push({ path, value });
      for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`);
    }
  };
  for (const [url, resource] of ctx.response.entries) walk(resource, `${str(resource.resourceType)}(${url})`);
  return found;
}
