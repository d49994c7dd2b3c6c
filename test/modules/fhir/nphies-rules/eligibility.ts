import { type Ctx, identifierKeys, referencedKeys } from "./context.js";
import { asArray, codeOf, extensionValue, isObject, type JsonObject, objects, str } from "./json.js";
import { reference } from "./refs.js";
import { bind, card, fail, notFuture, type Rule, required, rule } from "./rule.js";

const INF = Number.POSITIVE_INFINITY;
const CER = "CoverageEligibilityResponse";
const CS = "http://nphies.sa/terminology/CodeSystem/";
const SITE = `${CS}siteEligibility`;

const response = (ctx: Ctx): JsonObject =>
  ctx.response.focal?.resourceType === CER ? ctx.response.focal : {};
const request = (ctx: Ctx): JsonObject | undefined =>
  ctx.request?.focal?.resourceType === "CoverageEligibilityRequest" ? ctx.request.focal : undefined;
const hasRequest = (ctx: Ctx) => request(ctx) !== undefined;
const insurances = (ctx: Ctx) => objects(response(ctx).insurance);
const site = (element: unknown) => codeOf(extensionValue(element, "siteEligibility"), SITE);
const purposes = (resource: JsonObject | undefined) => asArray(resource?.purpose).map((p) => str(p) ?? "");
const outcomeIs = (value: string) => (ctx: Ctx) => response(ctx).outcome === value;
const EXT_SITE = "CoverageEligibilityResponse.extension:siteEligibility";

/** the message-level siteEligibility is not "eligible" when `condition` holds */
const notEligibleWhen = (id: string, condition: (ctx: Ctx) => boolean) =>
  rule(
    id,
    CER,
    (ctx) => (site(response(ctx)) === "eligible" ? fail(id, EXT_SITE, "eligible") : []),
    condition,
  );

const maxLength = (id: string, path: string, read: (r: JsonObject) => unknown[], max: number) =>
  rule(id, CER, (ctx) =>
    read(response(ctx)).flatMap((text) =>
      (str(text)?.length ?? 0) > max ? fail(id, path, `longer than ${max}`) : [],
    ),
  );

const benefits = (r: JsonObject) =>
  objects(r.insurance)
    .flatMap((insurance) => objects(insurance.item))
    .flatMap((item) => objects(item.benefit));
const items = (r: JsonObject) => objects(r.insurance).flatMap((insurance) => objects(insurance.item));

const currency = (id: string, key: "allowedMoney" | "usedMoney") =>
  rule(id, CER, (ctx) =>
    benefits(response(ctx)).flatMap((benefit) => {
      const money = benefit[key];
      return isObject(money) && money.currency !== "SAR"
        ? fail(id, `CoverageEligibilityResponse.insurance.item.benefit.${key}.currency`, "not SAR")
        : [];
    }),
  );

export const ELIGIBILITY_RULES: Rule[] = [
  required("IC-00160", `${CER}.id`),
  required("IC-00171", `${CER}.meta`),
  card("IC-00172", `${CER}.meta.profile`, 1, INF),
  card("IC-00161", `${CER}.identifier`, 1, INF),
  required("IC-00177", `${CER}.status`),
  card("IC-00175", `${CER}.purpose`, 1, INF),
  required("IC-00174", `${CER}.patient`),
  required("IC-00158", `${CER}.created`),
  required("IC-00176", `${CER}.request`),
  required("IC-00173", `${CER}.outcome`),
  required("IC-00170", `${CER}.insurer`),
  card("IC-01443", `${CER}.extension:siteEligibility`, 0, 1),
  card("IC-01378", `${CER}.servicedPeriod`, 0, 1),
  required("IC-00164", `${CER}.insurance.coverage`),
  required("IC-00165", `${CER}.insurance.inforce`),
  card("IC-01456", `${CER}.insurance.extension:siteEligibility`, 0, 1),
  required("IC-00163", `${CER}.insurance.benefitPeriod.start`),
  card("IC-00162", `${CER}.insurance.benefitPeriod.end`, 0, 1),
  card("IC-00167", `${CER}.insurance.item.network`, 0, 1),
  card("IC-00168", `${CER}.insurance.item.term`, 0, 1),
  card("IC-00169", `${CER}.insurance.item.unit`, 0, 1),
  card("IC-01376", `${CER}.insurance.item.description`, 0, 1),
  required("IC-00166", `${CER}.insurance.item.benefit.type`),
  card("IC-01372", `${CER}.insurance.item.benefit.allowedMoney`, 0, 1),
  card("IC-01373", `${CER}.insurance.item.benefit.allowedString`, 0, 1),
  card("IC-01374", `${CER}.insurance.item.benefit.allowedUnsignedInt`, 0, 1),
  card("IC-01375", `${CER}.insurance.item.benefit.usedMoney`, 0, 1),
  required("IC-00159", `${CER}.error.code`),
  card("IC-01371", `${CER}.error.extension:expression`, 0, 1),
  rule("IC-01415", CER, (ctx) =>
    response(ctx).servicedDate !== undefined && response(ctx).servicedPeriod !== undefined
      ? fail("IC-01415", `${CER}.servicedDate`, "both servicedDate and servicedPeriod")
      : [],
  ),
  rule("IC-01416", CER, (ctx) =>
    response(ctx).servicedDate !== undefined && response(ctx).servicedPeriod !== undefined
      ? fail("IC-01416", `${CER}.servicedPeriod`, "both servicedDate and servicedPeriod")
      : [],
  ),
  bind("IB-00133", `${CER}.outcome`, ["http://hl7.org/fhir/remittance-outcome"]),
  bind("IB-00134", `${CER}.purpose`, ["http://hl7.org/fhir/eligibilityresponse-purpose"]),
  bind("IB-00135", `${CER}.status`, ["http://hl7.org/fhir/fm-status"]),
  bind("IB-00120", `${CER}.error.code`, [`${CS}adjudication-error`]),
  bind("IB-00123", `${CER}.insurance.item.benefit.type`, [`${CS}benefit-type`]),
  bind("IB-00124", `${CER}.insurance.item.category`, [`${CS}benefit-category`]),
  bind("IB-00126", `${CER}.insurance.item.network`, [
    "http://terminology.hl7.org/CodeSystem/benefit-network",
  ]),
  bind("IB-00128", `${CER}.insurance.item.term`, ["http://terminology.hl7.org/CodeSystem/benefit-term"]),
  bind("IB-00129", `${CER}.insurance.item.unit`, ["http://terminology.hl7.org/CodeSystem/benefit-unit"]),
  bind("IB-00383", `${CER}.extension:siteEligibility.valueCodeableConcept`, [SITE]),
  bind("IB-00384", `${CER}.insurance.extension:siteEligibility.valueCodeableConcept`, [SITE]),
  reference("RE-00071", `${CER}.insurance.coverage`),
  reference("RE-00073", `${CER}.insurer`),
  reference("RE-00074", `${CER}.patient`),
  reference("RE-00075", `${CER}.request`),
  // the request is named by the CoverageEligibilityRequest's identifier
  ...["BV-00028", "BV-00151"].map((id) =>
    rule(
      id,
      CER,
      (ctx) => {
        const named = identifierKeys(response(ctx).request);
        const theirs = identifierKeys(request(ctx));
        return named.some((key) => theirs.includes(key))
          ? []
          : fail(id, `${CER}.request`, `${named} is not the request's ${theirs}`);
      },
      hasRequest,
    ),
  ),
  rule(
    "BV-00075",
    CER,
    (ctx) => {
      const ours = referencedKeys(ctx.response, response(ctx).patient);
      const theirs = referencedKeys(ctx.request, request(ctx)?.patient);
      return ours.some((key) => theirs.includes(key))
        ? []
        : fail("BV-00075", `${CER}.patient`, `${ours} is not the request's patient ${theirs}`);
    },
    hasRequest,
  ),
  rule(
    "BV-00067",
    CER,
    (ctx) => {
      const ours = JSON.stringify([response(ctx).servicedDate, response(ctx).servicedPeriod]);
      const theirs = JSON.stringify([request(ctx)?.servicedDate, request(ctx)?.servicedPeriod]);
      return ours === theirs
        ? []
        : fail("BV-00067", `${CER}.serviced[x]`, `${ours} differs from the request's ${theirs}`);
    },
    hasRequest,
  ),
  rule(
    "BV-00483",
    CER,
    (ctx) => {
      const ours = JSON.stringify(purposes(response(ctx)).sort());
      const theirs = JSON.stringify(purposes(request(ctx)).sort());
      return ours === theirs
        ? []
        : fail("BV-00483", `${CER}.purpose`, `${ours} differs from the request's ${theirs}`);
    },
    hasRequest,
  ),
  currency("BV-00084", "allowedMoney"),
  currency("BV-00085", "usedMoney"),
  rule(
    "BV-00503",
    CER,
    (ctx) => (site(response(ctx)) ? [] : fail("BV-00503", EXT_SITE, "missing on a complete response")),
    outcomeIs("complete"),
  ),
  notEligibleWhen(
    "BV-00535",
    (ctx) => insurances(ctx).length > 0 && insurances(ctx).every((insurance) => insurance.inforce === false),
  ),
  notEligibleWhen("BV-00558", (ctx) => insurances(ctx).length === 0),
  // insurance.siteEligibility is 0..1: only the insurances that state one are weighed
  notEligibleWhen("BV-00561", (ctx) => {
    const stated = insurances(ctx).filter((insurance) => site(insurance) !== undefined);
    return stated.length > 0 && stated.every((insurance) => site(insurance) !== "eligible");
  }),
  rule(
    "BV-00559",
    CER,
    (ctx) =>
      site(response(ctx)) === "eligible"
        ? []
        : fail("BV-00559", EXT_SITE, `${site(response(ctx))} while an insurance is eligible`),
    (ctx) => insurances(ctx).some((insurance) => site(insurance) === "eligible"),
  ),
  rule("BV-00560", CER, (ctx) =>
    insurances(ctx).flatMap((insurance, i) =>
      insurance.inforce === false && site(insurance) === "eligible"
        ? fail("BV-00560", `${CER}.insurance[${i}].extension:siteEligibility`, "eligible while not in force")
        : [],
    ),
  ),
  rule(
    "BV-00536",
    CER,
    (ctx) =>
      objects(response(ctx).error).length ? [] : fail("BV-00536", `${CER}.error`, "missing on an error"),
    outcomeIs("error"),
  ),
  rule("BV-00539", CER, (ctx) =>
    response(ctx).status === "active" ? [] : fail("BV-00539", `${CER}.status`, "not active"),
  ),
  maxLength("BV-00310", `${CER}.disposition`, (r) => [r.disposition], 250),
  maxLength("BV-00311", `${CER}.insurance.item.name`, (r) => items(r).map((item) => item.name), 100),
  maxLength(
    "BV-00312",
    `${CER}.insurance.item.description`,
    (r) => items(r).map((item) => item.description),
    250,
  ),
  maxLength(
    "BV-00313",
    `${CER}.insurance.item.benefit.allowedString`,
    (r) => benefits(r).map((b) => b.allowedString),
    60,
  ),
  maxLength(
    "BV-00314",
    `${CER}.insurance.item.benefit.usedString`,
    (r) => benefits(r).map((b) => b.usedString),
    60,
  ),
  maxLength("BV-00315", `${CER}.preAuthRef`, (r) => [r.preAuthRef], 40),
  rule("BV-00063", CER, (ctx) => notFuture("BV-00063", `${CER}.created`, response(ctx).created)),
];
