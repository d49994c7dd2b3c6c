import { type Ctx, licenceOf, resolve } from "./context.js";
import { GUID } from "./header.js";
import { codeOf, isObject, type JsonObject, objects, str } from "./json.js";
import { reference } from "./refs.js";
import { bind, card, fail, nodesAt, type Rule, required, rule } from "./rule.js";

const INF = Number.POSITIVE_INFINITY;
const CRQ = "CommunicationRequest";
const CS = "http://nphies.sa/terminology/CodeSystem/";

const request = (ctx: Ctx): JsonObject =>
  ctx.response.focal?.resourceType === CRQ ? ctx.response.focal : {};

/** an Organization reference is of the kind `type` (prov / ins): its organization-type or licence system */
function organisationIs(ctx: Ctx, value: unknown, kind: "prov" | "ins"): boolean {
  const target = resolve(ctx.response, value);
  const licence = kind === "prov" ? "provider-license" : "payer-license";
  const identifiers = objects(
    isObject(target) ? target.identifier : isObject(value) ? value.identifier : undefined,
  );
  if (identifiers.some((id) => str(id.system)?.endsWith(licence))) return true;
  return objects(target?.type).some((type) => codeOf(type, `${CS}organization-type`) === kind);
}

export const COMMUNICATION_REQUEST_RULES: Rule[] = [
  required("IC-00120", `${CRQ}.id`),
  required("IC-00122", `${CRQ}.meta`),
  card("IC-00123", `${CRQ}.meta.profile`, 1, INF),
  card("IC-00121", `${CRQ}.identifier`, 1, INF),
  required("IC-00129", `${CRQ}.status`),
  card("IC-00119", `${CRQ}.category`, 0, INF),
  card("IC-00126", `${CRQ}.priority`, 0, 1),
  required("IC-00130", `${CRQ}.subject`),
  card("IC-00118", `${CRQ}.about`, 1, INF),
  required("IC-00354", `${CRQ}.about.type`),
  required("IC-00353", `${CRQ}.about.identifier`),
  card("IC-00127", `${CRQ}.recipient`, 1, INF),
  required("IC-00128", `${CRQ}.sender`),
  required("IC-00125", `${CRQ}.payload.content[x]`),
  required("IC-00124", `${CRQ}.note.text`),
  card("IC-00396", `${CRQ}.reasonCode`, 0, 1),
  card("IC-01360", `${CRQ}.note.authorString`, 0, 1),
  card("IC-01361", `${CRQ}.occurrenceDateTime`, 0, 1),
  bind("IB-00092", `${CRQ}.category`, ["http://terminology.hl7.org/CodeSystem/communication-category"]),
  bind("IB-00097", `${CRQ}.priority`, ["http://hl7.org/fhir/request-priority"]),
  bind("IB-00098", `${CRQ}.reasonCode`, [`${CS}communication-reason`]),
  bind("IB-00099", `${CRQ}.status`, ["http://hl7.org/fhir/request-status"]),
  // the request is about a Claim (or the ClaimResponse of an advanced authorization)
  ...["IB-00249", "BV-00233"].map((id) =>
    rule(id, CRQ, (ctx) =>
      objects(request(ctx).about).flatMap((about, i) =>
        about.type === "Claim" || about.type === "ClaimResponse"
          ? []
          : fail(id, `${CRQ}.about[${i}].type`, `${str(about.type)} is not Claim`),
      ),
    ),
  ),
  rule("BV-00335", CRQ, (ctx) =>
    request(ctx).status === "active" ? [] : fail("BV-00335", `${CRQ}.status`, "not active"),
  ),
  rule("BV-00514", CRQ, (ctx) =>
    objects(request(ctx).recipient).flatMap((recipient, i) =>
      organisationIs(ctx, recipient, "prov")
        ? []
        : fail("BV-00514", `${CRQ}.recipient[${i}]`, "not a provider organization"),
    ),
  ),
  rule("BV-00515", CRQ, (ctx) =>
    organisationIs(ctx, request(ctx).sender, "ins")
      ? []
      : fail("BV-00515", `${CRQ}.sender`, "not a payer organization"),
  ),
  rule("BV-00516", CRQ, (ctx) => {
    const receiver = licenceOf(ctx.response, objects(ctx.response.header?.destination)[0]?.receiver);
    const recipients = objects(request(ctx).recipient).map((recipient) => licenceOf(ctx.response, recipient));
    return recipients.includes(receiver)
      ? []
      : fail("BV-00516", `${CRQ}.recipient`, `${recipients} is not the receiver ${receiver}`);
  }),
  rule("BV-00517", CRQ, (ctx) => {
    const sender = licenceOf(ctx.response, ctx.response.header?.sender);
    const ours = licenceOf(ctx.response, request(ctx).sender);
    return ours === sender
      ? []
      : fail("BV-00517", `${CRQ}.sender`, `${ours} is not the MessageHeader.sender ${sender}`);
  }),
  rule("BV-00319", CRQ, (ctx) =>
    objects(request(ctx).note).flatMap((note, i) =>
      (str(note.authorString)?.length ?? 0) > 100
        ? fail("BV-00319", `${CRQ}.note[${i}].authorString`, "longer than 100")
        : [],
    ),
  ),
  reference("RE-00044", `${CRQ}.about`),
  reference("RE-00050", `${CRQ}.recipient`),
  reference("RE-00053", `${CRQ}.sender`),
  reference("RE-00054", `${CRQ}.subject`),
  reference("RE-00048", `${CRQ}.payload.contentReference`),
  reference("RE-00047", `${CRQ}.note.authorReference`),
  // a Reference's type names the type of what it resolves to
  ...(
    [
      ["IC-00356", "recipient"],
      ["IC-00358", "requester"],
      ["IC-00359", "sender"],
      ["IC-00360", "subject"],
    ] as const
  ).map(([id, element]) =>
    rule(id, CRQ, (ctx) =>
      nodesAt(ctx, `${CRQ}.${element}`).flatMap((node) => {
        const type = isObject(node.value) ? str(node.value.type) : undefined;
        const target = resolve(ctx.response, node.value);
        return type === undefined || target === undefined || target.resourceType === type
          ? []
          : fail(id, `${node.path}.type`, `${type} names a ${str(target.resourceType)}`);
      }),
    ),
  ),
];

/** OperationOutcome: what an acknowledgement (or a response header's details) carries */
export const OPERATION_OUTCOME_RULES: Rule[] = [
  required("IC-01384", "OperationOutcome.id"),
  required("IC-01391", "OperationOutcome.meta"),
  card("IC-01392", "OperationOutcome.meta.profile", 1, INF),
  card("IC-01385", "OperationOutcome.issue", 1, INF),
  required("IC-01390", "OperationOutcome.issue.severity"),
  required("IC-01386", "OperationOutcome.issue.code"),
  card("IC-01387", "OperationOutcome.issue.details", 0, 1),
  card("IC-01388", "OperationOutcome.issue.diagnostics", 0, 1),
  card("IC-01389", "OperationOutcome.issue.expression", 0, INF),
  bind("IB-00287", "OperationOutcome.issue.severity", ["http://hl7.org/fhir/issue-severity"]),
  rule("BV-00346", "OperationOutcome", (ctx) =>
    nodesAt(ctx, "OperationOutcome.id").flatMap((node) =>
      GUID.test(str(node.value) ?? "") ? [] : fail("BV-00346", node.path, "not a GUID"),
    ),
  ),
  // an acknowledgement is just a MessageHeader and, when there are errors, an OperationOutcome
  rule(
    "BV-00129",
    "Bundle",
    (ctx) =>
      [...ctx.response.entries].flatMap(([url, resource]) =>
        ["MessageHeader", "OperationOutcome"].includes(str(resource.resourceType) ?? "")
          ? []
          : fail("BV-00129", `Bundle.entry(${url})`, `${str(resource.resourceType)} in an acknowledgement`),
      ),
    (ctx) => ctx.response.event === "acknowledgement",
  ),
];
