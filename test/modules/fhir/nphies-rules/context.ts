import { codeOf, isObject, type JsonObject, type Node, objects, str } from "./json.js";
import type { Terminology } from "./terminology.js";

/** one side of the exchange: a message Bundle with its header, focal resource and entries by fullUrl */
export interface Message {
  bundle: JsonObject;
  header: JsonObject | undefined;
  event: string | undefined;
  focal: JsonObject | undefined;
  entries: Map<string, JsonObject>;
}

/** what every rule sees */
export interface Ctx {
  response: Message;
  request: Message | undefined;
  terminology: Terminology;
}

export function readMessage(bundle: unknown): Message {
  const root = isObject(bundle) ? bundle : {};
  const entries = new Map<string, JsonObject>();
  for (const entry of objects(root.entry)) {
    const url = str(entry.fullUrl);
    if (url !== undefined && isObject(entry.resource)) entries.set(url, entry.resource);
  }
  const first = objects(root.entry)[0]?.resource;
  const header = isObject(first) && first.resourceType === "MessageHeader" ? first : undefined;
  const focusUrl = str(objects(header?.focus)[0]?.reference);
  return {
    bundle: root,
    header,
    event: codeOf(header?.eventCoding),
    focal: focusUrl === undefined ? undefined : entries.get(focusUrl),
    entries,
  };
}

/** the resources of a type in a message (Bundle: the message itself), each as a root node */
export function resourcesOf(message: Message, type: string): Node[] {
  if (type === "Bundle") return [{ path: "Bundle", value: message.bundle }];
  return objects(message.bundle.entry).flatMap((entry) =>
    isObject(entry.resource) && entry.resource.resourceType === type
      ? [{ path: type, value: entry.resource }]
      : [],
  );
}

/** the resource a Reference points to inside the message, by fullUrl */
export function resolve(message: Message | undefined, reference: unknown): JsonObject | undefined {
  const url = isObject(reference) ? str(reference.reference) : undefined;
  return url === undefined ? undefined : message?.entries.get(url);
}

/** "system|value" keys of the business identifiers of a resource or a logical reference */
export function identifierKeys(value: unknown): string[] {
  if (!isObject(value)) return [];
  return objects(value.identifier).map((id) => `${str(id.system) ?? ""}|${str(id.value) ?? ""}`);
}

/** identifiers of what a Reference designates: the resolved resource's, else the logical identifier */
export function referencedKeys(message: Message | undefined, reference: unknown): string[] {
  const target = resolve(message, reference);
  return target ? identifierKeys(target) : identifierKeys(reference);
}

/** the licence a MessageHeader sender / receiver carries (logical identifier or resolved Organization) */
export function licenceOf(message: Message | undefined, reference: unknown): string | undefined {
  const keys = referencedKeys(message, reference);
  return keys.map((key) => key.split("|")[1]).find((value) => value !== undefined && value !== "");
}
