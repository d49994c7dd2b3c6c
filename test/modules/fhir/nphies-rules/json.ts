/** plain JSON and the narrowing helpers the rules use instead of casts */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: unknown };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** an element's values: FHIR repeats as arrays, single values stand alone */
export const asArray = (value: unknown): unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export const objects = (value: unknown): JsonObject[] => asArray(value).filter(isObject);

/** a node found by a path: its concrete location (with indexes) and value */
export interface Node {
  path: string;
  value: unknown;
}

/** the url of an extension matches a short name: the last URL segment, with or without `extension-` */
export const extensionNamed = (url: unknown, name: string): boolean => {
  const last = str(url)?.split("/").pop() ?? "";
  return last === name || last === `extension-${name}`;
};

/**
 * Walks a dotted FHIR path below a node. Segments: a property name; `extension:name` (the extensions
 * whose url ends with name); `value[x]` (any `value*` property). Arrays are flattened, indexes kept.
 */
export function select(root: Node, path: string): Node[] {
  let nodes = [root];
  for (const segment of path.split(".").filter(Boolean)) {
    nodes = nodes.flatMap((node) => step(node, segment));
  }
  return nodes;
}

function step(node: Node, segment: string): Node[] {
  if (!isObject(node.value)) return [];
  const object = node.value;
  const [name, slice] = segment.split(":");
  if (name === undefined) return [];
  const keys = name.endsWith("[x]")
    ? Object.keys(object).filter((key) => key.startsWith(name.slice(0, -3)) && key !== name.slice(0, -3))
    : [name];
  return keys.flatMap((key) => {
    const value = object[key];
    if (value === undefined) return [];
    const items = Array.isArray(value)
      ? value.map((item: unknown, i: number) => ({ path: `${node.path}.${key}[${i}]`, value: item }))
      : [{ path: `${node.path}.${key}`, value }];
    return slice === undefined
      ? items
      : items.filter((item) => isObject(item.value) && extensionNamed(item.value.url, slice));
  });
}

/** the codings of a CodeableConcept (or a lone Coding) */
export const codings = (value: unknown): JsonObject[] =>
  isObject(value) && "coding" in value
    ? objects(value.coding)
    : isObject(value) && "code" in value
      ? [value]
      : [];

/** the first code of a CodeableConcept, optionally in one system */
export const codeOf = (value: unknown, system?: string): string | undefined =>
  codings(value)
    .filter((coding) => system === undefined || coding.system === system)
    .map((coding) => str(coding.code))
    .find((code) => code !== undefined);

/** the value of an extension (by short name) directly on an element */
export const extensionValue = (element: unknown, name: string): unknown => {
  if (!isObject(element)) return undefined;
  const extension = objects(element.extension).find((ext) => extensionNamed(ext.url, name));
  if (!extension) return undefined;
  const key = Object.keys(extension).find((k) => k.startsWith("value"));
  return key === undefined ? undefined : extension[key];
};

/** a property of a value that may be an object */
export const child = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);
