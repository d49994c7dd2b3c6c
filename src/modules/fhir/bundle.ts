import type { Static } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { AppError } from "../../platform/http/errors.js";
import { MESSAGE_EVENTS, RESPONSE_EVENT, type RequestEvent } from "../../reference/nphies-fhir.js";
import type { ReceivedEntry } from "./origin.js";
import { Bundle, type FhirBundle, MessageHeader, RESOURCE_SCHEMAS, type Reference } from "./schemas.js";

/**
 * Problems of a bundle, each named by the FHIRPath of the element at fault. Every check of a message
 * reports here; when any is found the message is refused as a whole (400 OperationOutcome), nothing stored.
 */
export class Problems {
  readonly found: { path: string; message: string }[] = [];
  add(path: string, message: string): void {
    this.found.push({ path, message });
  }
  /** refuses the message when anything was found; the error handler renders one issue per problem */
  throwIfAny(): void {
    if (this.found.length === 0) return;
    const details = this.found.map((problem) => `${problem.path}: ${problem.message}`);
    throw new AppError("E_BAD_REQUEST_400", details[0], details);
  }
}

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** `/entry/1/resource/item/0` read under `Bundle` is `Bundle.entry[1].resource.item[0]` */
export function fhirPathOf(root: string, pointer: string): string {
  if (pointer === "") return root;
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : `${path}.${segment}`), root);
}

const FORMAT_TEXT: Record<string, string> = {
  "fhir-date": "must be a FHIR date (YYYY-MM-DD) naming a real day",
  "fhir-datetime":
    "must be a FHIR dateTime (a date, or date and time with a zone: 2025-01-31T10:00:00+03:00)",
};

function messageOf(error: SchemaError): string {
  if (error.keyword === "format") return FORMAT_TEXT[String(error.params.format)] ?? error.message;
  if (error.keyword === "enum") {
    const allowed = error.params.allowedValues as unknown[];
    return `must be one of ${allowed.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  if (error.keyword === "const") return `must be ${JSON.stringify(error.params.allowedValue)}`;
  if (error.keyword === "pattern")
    return "must contain only letters, digits, '-', '_' or '.', starting with a letter or digit";
  return error.message;
}

/** a schema's failures on a value, as problems under `root` */
function reportErrors(validator: Validator, value: unknown, root: string, problems: Problems): void {
  for (const error of validator.Errors(value) as SchemaError[]) {
    const path = fhirPathOf(root, error.instancePath);
    if (error.keyword === "required")
      for (const name of error.params.requiredProperties as string[])
        problems.add(`${path}.${name}`, "is required");
    else problems.add(path, messageOf(error));
  }
}

const BUNDLE = Compile(Bundle);
const HEADER = Compile(MessageHeader);
const VALIDATORS: Record<string, Validator> = Object.fromEntries(
  Object.entries(RESOURCE_SCHEMAS).map(([type, schema]): [string, Validator] => [type, Compile(schema)]),
);
type Schemas = typeof RESOURCE_SCHEMAS;

/** a validated resource of the message, with where it sits */
export interface Entry<T> {
  index: number;
  path: string;
  resource: T;
}

/**
 * A request message whose envelope and resources passed their schemas: the MessageHeader, its event, the
 * focus, and reference resolution inside the bundle (`fullUrl`, or `Type/id`).
 */
export class Message {
  readonly header: Static<typeof MessageHeader> & { focus: Static<typeof Reference>[] };
  readonly event: RequestEvent;

  constructor(
    readonly bundle: FhirBundle,
    header: Static<typeof MessageHeader> & { focus: Static<typeof Reference>[] },
    event: RequestEvent,
    readonly problems: Problems,
  ) {
    this.header = header;
    this.event = event;
  }

  /** an entry as the response bundles carry it again: its fullUrl and the resource as sent */
  received(entry: Entry<{ resourceType: string; id?: string | undefined }>): ReceivedEntry {
    const sent = this.bundle.entry[entry.index];
    if (sent === undefined) throw new Error(`entry ${entry.index} is not in the bundle`);
    return { fullUrl: sent.fullUrl, resource: sent.resource };
  }

  /** the index of the entry a reference names (`fullUrl`, `Type/id`, or a fullUrl ending in it), or -1 */
  indexOf(target: string): number {
    const exact = this.bundle.entry.findIndex(
      (entry) =>
        entry.fullUrl === target ||
        (entry.resource.id !== undefined &&
          (target === `${entry.resource.resourceType}/${entry.resource.id}` ||
            entry.fullUrl.endsWith(`/${target}`))),
    );
    if (exact !== -1) return exact;
    // senders' references and fullUrls have been seen to differ in case only (".../organization/..."
    // naming ".../Organization/..."): one entry so named is the one meant
    const lower = target.toLowerCase();
    const alike = this.bundle.entry.flatMap((entry, index) =>
      entry.fullUrl.toLowerCase() === lower ? [index] : [],
    );
    return alike.length === 1 ? (alike[0] as number) : -1;
  }

  /** the entry a reference points to when it is there and of `type`; nothing is a problem here */
  find<K extends keyof Schemas & string>(
    reference: Static<typeof Reference> | undefined,
    type: K,
  ): Entry<Static<Schemas[K]>> | undefined {
    const index = reference?.reference === undefined ? -1 : this.indexOf(reference.reference);
    const entry = this.bundle.entry[index];
    if (entry?.resource.resourceType !== type) return undefined;
    return { index, path: `Bundle.entry[${index}].resource`, resource: entry.resource as Static<Schemas[K]> };
  }

  /** the entries of a resource type, in bundle order */
  all<K extends keyof Schemas & string>(type: K): Entry<Static<Schemas[K]>>[] {
    return this.bundle.entry.flatMap((entry, index) =>
      entry.resource.resourceType === type
        ? [{ index, path: `Bundle.entry[${index}].resource`, resource: entry.resource as Static<Schemas[K]> }]
        : [],
    );
  }

  /** the entry a reference points to, checked to be of `type`; a problem at `path` when it is not there */
  resolve<K extends keyof Schemas & string>(
    reference: Static<typeof Reference> | undefined,
    path: string,
    type: K,
  ): Entry<Static<Schemas[K]>> | undefined {
    const target = reference?.reference;
    if (target === undefined) {
      this.problems.add(`${path}.reference`, `is required: a reference to the ${type} in the bundle`);
      return undefined;
    }
    const index = this.indexOf(target);
    const entry = this.bundle.entry[index];
    if (entry === undefined) {
      this.problems.add(`${path}.reference`, `${target} does not resolve to an entry of the bundle`);
      return undefined;
    }
    if (entry.resource.resourceType !== type) {
      this.problems.add(`${path}.reference`, `${target} is a ${entry.resource.resourceType}, not a ${type}`);
      return undefined;
    }
    // readMessage refused every message whose resources fail their schemas: this one passed its own
    return { index, path: `Bundle.entry[${index}].resource`, resource: entry.resource as Static<Schemas[K]> };
  }
}

const isRequestEvent = (code: string): code is RequestEvent => code in RESPONSE_EVENT;

/**
 * Reads a request message: the envelope, every resource this endpoint reads against its schema, the
 * MessageHeader first with a request event this endpoint processes. Refuses (throws) on any problem.
 */
export function readMessage(body: unknown): Message {
  const problems = new Problems();
  if (!BUNDLE.Check(body)) {
    reportErrors(BUNDLE, body, "Bundle", problems);
    problems.throwIfAny();
    throw new Error("unreachable: a bundle that fails its schema has problems");
  }
  body.entry.forEach((entry, index) => {
    const validator = VALIDATORS[entry.resource.resourceType];
    if (validator !== undefined && !validator.Check(entry.resource))
      reportErrors(validator, entry.resource, `Bundle.entry[${index}].resource`, problems);
  });
  const header = body.entry[0]?.resource;
  if (header?.resourceType !== "MessageHeader")
    problems.add("Bundle.entry[0].resource", "must be the MessageHeader (the first entry of a message)");
  problems.throwIfAny();
  if (!HEADER.Check(header)) throw new Error("unreachable: the MessageHeader passed its schema above");
  const { system, code } = header.eventCoding;
  if (system !== MESSAGE_EVENTS)
    problems.add("Bundle.entry[0].resource.eventCoding.system", `must be ${MESSAGE_EVENTS}`);
  if (!isRequestEvent(code)) {
    problems.add(
      "Bundle.entry[0].resource.eventCoding.code",
      `${code} is not processed here: send ${Object.keys(RESPONSE_EVENT).join(", ")}`,
    );
    problems.throwIfAny();
    throw new Error("unreachable");
  }
  if (header.focus === undefined || header.focus.length === 0)
    problems.add("Bundle.entry[0].resource.focus", "is required: the message's focal resource");
  problems.throwIfAny();
  return new Message(body, { ...header, focus: header.focus ?? [] }, code, problems);
}
