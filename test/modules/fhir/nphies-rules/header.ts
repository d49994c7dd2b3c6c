import { type Ctx, licenceOf, resolve } from "./context.js";
import { asArray, child, codeOf, isObject, objects, str } from "./json.js";
import { allReferences, reference } from "./refs.js";
import { bind, card, fail, type Rule, required, rule } from "./rule.js";

const INF = Number.POSITIVE_INFINITY;
const KSA = "http://nphies.sa/terminology/CodeSystem/ksa-message-events";
const PAYER_LICENCE = "http://nphies.sa/license/payer-license";
const PROVIDER_LICENCE = "http://nphies.sa/license/provider-license";
export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** the event a payer answers each request event with (IG table 11) */
export const RESPONSE_EVENT: Record<string, string> = {
  "priorauth-request": "priorauth-response",
  "claim-request": "claim-response",
  "eligibility-request": "eligibility-response",
  "cancel-request": "cancel-response",
  "status-check": "status-response",
  communication: "acknowledgement",
  "payment-notice": "acknowledgement",
  "batch-request": "batch-response",
  "prescriber-request": "prescriber-response",
};

/** the focal resource type of each event a payer sends (IG table 12); acknowledgement: none or OperationOutcome */
const FOCAL_TYPE: Record<string, string> = {
  "priorauth-response": "ClaimResponse",
  "claim-response": "ClaimResponse",
  "eligibility-response": "CoverageEligibilityResponse",
  "cancel-response": "Task",
  "status-response": "Task",
  "communication-request": "CommunicationRequest",
  "payment-reconciliation": "PaymentReconciliation",
  acknowledgement: "OperationOutcome",
};

/** the events an HIC may send (BV-00545) */
const PAYER_EVENTS = new Set([
  ...Object.keys(FOCAL_TYPE),
  "poll-request",
  "batch-response",
  "advanced-authorization",
  "prescriber-response",
]);

/** events a payer sends without a request to answer (BV-00248) */
const REQUEST_LEG = new Set(["communication-request", "payment-reconciliation", "advanced-authorization"]);

const header = (ctx: Ctx) => ctx.response.header ?? {};
const event = (ctx: Ctx) => ctx.response.event ?? "";
const answers = (ctx: Ctx) => ctx.request !== undefined;
const isUrl = (value: unknown) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(str(value) ?? "");
const responseLeg = (ctx: Ctx) => answers(ctx) || !REQUEST_LEG.has(event(ctx));

/** response.identifier names the request's MessageHeader.id (one rule per kind of request) */
const answersRequest = (id: string, events: string[] | undefined): Rule =>
  rule(
    id,
    "MessageHeader",
    (ctx) => {
      const expected = str(ctx.request?.header?.id);
      const actual = str(child(header(ctx).response, "identifier"));
      return actual === expected
        ? []
        : fail(
            id,
            "MessageHeader.response.identifier",
            `${actual} is not the request's MessageHeader.id ${expected}`,
          );
    },
    (ctx) => answers(ctx) && (events === undefined || events.includes(event(ctx))),
  );

export const BUNDLE_RULES: Rule[] = [
  required("IC-00326", "Bundle.id"),
  required("IC-00011", "Bundle.type"),
  required("IC-00010", "Bundle.timestamp"),
  card("IC-00009", "Bundle.meta.profile", 1, INF),
  card("IC-01435", "Bundle.entry.resource", 1, 1),
  bind("IB-00006", "Bundle.type", ["http://hl7.org/fhir/bundle-type"]),
  rule("BV-00130", "Bundle", (ctx) =>
    ctx.response.bundle.type === "message"
      ? []
      : fail("BV-00130", "Bundle.type", `"${str(ctx.response.bundle.type)}" is not "message"`),
  ),
  rule("BV-00341", "Bundle", (ctx) =>
    GUID.test(str(ctx.response.bundle.id) ?? "") ? [] : fail("BV-00341", "Bundle.id", "not a GUID"),
  ),
  ...["BV-00126", "FR-00012"].map((id) =>
    rule(id, "Bundle", (ctx) =>
      ctx.response.header ? [] : fail(id, "Bundle.entry[0]", "the first entry is not a MessageHeader"),
    ),
  ),
  rule("FR-00005", "Bundle", (ctx) =>
    objects(ctx.response.bundle.entry).flatMap((entry, i) =>
      isObject(entry.resource) ? [] : fail("FR-00005", `Bundle.entry[${i}]`, "no resource"),
    ),
  ),
  rule("FR-00007", "Bundle", (ctx) => {
    const urls = objects(ctx.response.bundle.entry).map((entry) => str(entry.fullUrl));
    return urls.flatMap((url, i) =>
      urls.indexOf(url) !== i ? fail("FR-00007", `Bundle.entry[${i}].fullUrl`, `${url} repeats`) : [],
    );
  }),
  rule("FR-00008", "Bundle", (ctx) =>
    [...ctx.response.entries.keys()].flatMap((url) =>
      url.includes("/_history/")
        ? fail("FR-00008", "Bundle.entry.fullUrl", `${url} is version specific`)
        : [],
    ),
  ),
  // fullUrl = base/Type/id: the last segment is the id, the one before it the resource type
  rule("BV-00207", "Bundle", (ctx) =>
    [...ctx.response.entries].flatMap(([url, resource]) =>
      url.startsWith("urn:") || url.endsWith(`/${str(resource.id)}`)
        ? []
        : fail(
            "BV-00207",
            `Bundle.entry(${url})`,
            `the fullUrl does not end with the id ${str(resource.id)}`,
          ),
    ),
  ),
  rule("BV-00208", "Bundle", (ctx) =>
    [...ctx.response.entries].flatMap(([url, resource]) =>
      url.startsWith("urn:") || url.split("/").at(-2) === resource.resourceType
        ? []
        : fail(
            "BV-00208",
            `Bundle.entry(${url})`,
            `the fullUrl does not name the type ${str(resource.resourceType)}`,
          ),
    ),
  ),
  // every resource names its profile with a version (…|1.0.0)
  rule("BV-00225", "Bundle", (ctx) =>
    [...ctx.response.entries].flatMap(([url, resource]) => {
      const profiles = isObject(resource.meta) ? asArray(resource.meta.profile) : [];
      return profiles.every((profile) => /\|\d+(\.\d+)*$/.test(str(profile) ?? ""))
        ? []
        : fail(
            "BV-00225",
            `${str(resource.resourceType)}(${url}).meta.profile`,
            "a profile without |version",
          );
    }),
  ),
  ...["BV-00079", "RE-00174"].map((id) =>
    rule(id, "Bundle", (ctx) =>
      allReferences(ctx).flatMap((node) => {
        const url = isObject(node.value) ? str(node.value.reference) : undefined;
        return url === undefined || ctx.response.entries.has(url)
          ? []
          : fail(id, node.path, `${url} is not in the bundle`);
      }),
    ),
  ),
];

export const HEADER_RULES: Rule[] = [
  required("IC-00380", "MessageHeader.id"),
  required("IC-00377", "MessageHeader.eventCoding"),
  required("IC-00219", "MessageHeader.eventCoding"),
  required("IC-00220", "MessageHeader.eventCoding.code"),
  required("IC-00221", "MessageHeader.eventCoding.system"),
  required("IC-00375", "MessageHeader.destination"),
  required("IC-00217", "MessageHeader.destination.endpoint"),
  required("IC-00218", "MessageHeader.destination.receiver"),
  required("IC-00226", "MessageHeader.sender"),
  required("IC-00227", "MessageHeader.source"),
  required("IC-00228", "MessageHeader.source.endpoint"),
  required("IC-00222", "MessageHeader.meta"),
  card("IC-00223", "MessageHeader.meta.profile", 1, INF),
  required("IC-00394", "MessageHeader.response", responseLeg),
  required("IC-00224", "MessageHeader.response.code"),
  required("IC-00225", "MessageHeader.response.identifier"),
  card("IC-00378", "MessageHeader.focus", 0, 1),
  card("IC-00379", "MessageHeader.focus", 1, 1, (ctx) => event(ctx) !== "acknowledgement"),
  // "not to be sent by HIC/HCP" (header request table): only NPHIES sets them
  card("IC-01381", "MessageHeader.extension:originalRequest", 0, 0),
  card("IC-01382", "MessageHeader.extension:originalResponse", 0, 0),
  bind("IB-00250", "MessageHeader.eventCoding", [KSA]),
  bind("IB-00169", "MessageHeader.eventCoding", [KSA]),
  bind("IB-00175", "MessageHeader.response.code", ["http://hl7.org/fhir/response-code"]),
  rule("BV-00168", "MessageHeader", (ctx) =>
    GUID.test(str(header(ctx).id) ?? "")
      ? []
      : fail("BV-00168", "MessageHeader.id", `${str(header(ctx).id)} is not a GUID`),
  ),
  rule("BV-00177", "MessageHeader", (ctx) =>
    isUrl(child(header(ctx).source, "endpoint"))
      ? []
      : fail("BV-00177", "MessageHeader.source.endpoint", "not a URL"),
  ),
  rule("BV-00218", "MessageHeader", (ctx) =>
    objects(header(ctx).destination).flatMap((destination, i) =>
      isUrl(destination.endpoint)
        ? []
        : fail("BV-00218", `MessageHeader.destination[${i}].endpoint`, "not a URL"),
    ),
  ),
  rule("BV-00545", "MessageHeader", (ctx) =>
    PAYER_EVENTS.has(event(ctx))
      ? []
      : fail("BV-00545", "MessageHeader.eventCoding", `an HIC cannot send ${event(ctx)}`),
  ),
  rule(
    "BV-00543",
    "MessageHeader",
    (ctx) => {
      const expected = RESPONSE_EVENT[ctx.request?.event ?? ""];
      return event(ctx) === expected
        ? []
        : fail(
            "BV-00543",
            "MessageHeader.eventCoding",
            `${event(ctx)} does not answer ${ctx.request?.event} (expected ${expected})`,
          );
    },
    answers,
  ),
  rule("BV-00167", "MessageHeader", (ctx) => {
    const expected = FOCAL_TYPE[event(ctx)];
    const focal = ctx.response.focal;
    if (expected === undefined || (focal === undefined && event(ctx) === "acknowledgement")) return [];
    return focal?.resourceType === expected
      ? []
      : fail("BV-00167", "MessageHeader.focus", `focus is ${str(focal?.resourceType)}, expected ${expected}`);
  }),
  rule("BV-00221", "MessageHeader", (ctx) =>
    objects(header(ctx).focus).length <= 1
      ? []
      : fail("BV-00221", "MessageHeader.focus", "more than one focus"),
  ),
  rule(
    "BV-00247",
    "MessageHeader",
    (ctx) =>
      isObject(header(ctx).response)
        ? []
        : fail("BV-00247", "MessageHeader.response", "missing on a response"),
    answers,
  ),
  rule(
    "BV-00248",
    "MessageHeader",
    (ctx) =>
      header(ctx).response === undefined
        ? []
        : fail("BV-00248", "MessageHeader.response", "present on a request-leg message"),
    (ctx) => !answers(ctx) && REQUEST_LEG.has(event(ctx)),
  ),
  answersRequest("BV-00544", undefined),
  answersRequest("BV-00175", undefined),
  answersRequest("BV-00170", ["cancel-response"]),
  answersRequest("BV-00171", ["claim-response"]),
  answersRequest("BV-00172", ["eligibility-response"]),
  answersRequest("BV-00174", ["priorauth-response"]),
  ...[answersRequest("BV-00173", ["cancel-response"])].map((base) => ({
    ...base,
    applies: (ctx: Ctx) => base.applies(ctx) && codeOf(ctx.request?.focal?.code) === "nullify",
  })),
  // the payer answers as the request's receiver, to the request's sender
  rule(
    "BV-00447",
    "MessageHeader",
    (ctx) => {
      const sender = licenceOf(ctx.response, header(ctx).sender);
      const receiver = licenceOf(ctx.request, objects(ctx.request?.header?.destination)[0]?.receiver);
      return sender === receiver
        ? []
        : fail("BV-00447", "MessageHeader.sender", `${sender} is not the request's receiver ${receiver}`);
    },
    answers,
  ),
  rule(
    "BV-00448",
    "MessageHeader",
    (ctx) => {
      const receiver = licenceOf(ctx.response, objects(header(ctx).destination)[0]?.receiver);
      const sender = licenceOf(ctx.request, ctx.request?.header?.sender);
      return sender === receiver
        ? []
        : fail(
            "BV-00448",
            "MessageHeader.destination.receiver",
            `${receiver} is not the request's sender ${sender}`,
          );
    },
    answers,
  ),
  // a payer sends with its payer licence, to a provider licence
  ...["BV-00176", "BV-00211"].map((id) =>
    rule(id, "MessageHeader", (ctx) =>
      licenceSystem(ctx, header(ctx).sender) === PAYER_LICENCE
        ? []
        : fail(id, "MessageHeader.sender", `not a ${PAYER_LICENCE} identifier`),
    ),
  ),
  ...["BV-00169", "BV-00201"].map((id) =>
    rule(id, "MessageHeader", (ctx) =>
      objects(header(ctx).destination).flatMap((destination, i) =>
        licenceSystem(ctx, destination.receiver) === PROVIDER_LICENCE
          ? []
          : fail(id, `MessageHeader.destination[${i}].receiver`, `not a ${PROVIDER_LICENCE} identifier`),
      ),
    ),
  ),
  reference("RE-00097", "MessageHeader.destination.receiver"),
  reference("RE-00100", "MessageHeader.focus"),
  reference("RE-00101", "MessageHeader.response.details"),
  reference("RE-00103", "MessageHeader.sender"),
];

/** the identifier system of a sender / receiver: the logical identifier or the resolved Organization's */
function licenceSystem(ctx: Ctx, value: unknown): string | undefined {
  const target = resolve(ctx.response, value) ?? value;
  return isObject(target) ? objects(target.identifier).map((id) => str(id.system))[0] : undefined;
}
