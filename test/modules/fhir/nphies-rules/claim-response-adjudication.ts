import {
  adjOutcome,
  adjudication,
  amount,
  and,
  approvedOrPartial,
  CR,
  categories,
  claim,
  complete,
  DECIDED,
  eachItem,
  hasClaim,
  isClaim,
  isPreauth,
  items,
  outcome,
  response,
} from "./claim-response-common.js";
import { codeOf, extensionValue, isObject, type JsonObject, objects, str } from "./json.js";
import { fail, notFuture, type Rule, rule } from "./rule.js";

/** the adjudication a ClaimResponse carries: outcomes, categories, amounts, errors, notes */
/** note numbers refer to processNote.number */
const noteRefs = (id: string, path: (item: JsonObject) => JsonObject[]) =>
  rule(id, CR, (ctx) => {
    const numbers = objects(response(ctx).processNote).map((note) => note.number);
    return items(ctx).flatMap((item, i) =>
      path(item).flatMap((element) =>
        (Array.isArray(element.noteNumber) ? element.noteNumber : []).flatMap((n: unknown) =>
          numbers.includes(n)
            ? []
            : fail(id, `ClaimResponse.item[${i}]`, `noteNumber ${n} has no processNote`),
        ),
      ),
    );
  });

const subTypeFor = (id: string, types: string[], allowed: string[]) =>
  rule(
    id,
    CR,
    (ctx) => {
      const subType = codeOf(response(ctx).subType);
      return subType === undefined || allowed.includes(subType.toLowerCase())
        ? []
        : fail(id, "ClaimResponse.subType", `${subType} for a ${types[0]} claim`);
    },
    (ctx) => types.includes(codeOf(response(ctx).type) ?? ""),
  );

const maxLength = (id: string, path: string, read: (r: JsonObject) => unknown[], max: number) =>
  rule(id, CR, (ctx) =>
    read(response(ctx)).flatMap((text) =>
      (str(text)?.length ?? 0) > max ? fail(id, path, `longer than ${max}`) : [],
    ),
  );

export const CLAIM_RESPONSE_ADJUDICATION: Rule[] = [
  rule(
    "BV-00228",
    CR,
    (ctx) =>
      items(ctx).length === 0
        ? []
        : fail("BV-00228", "ClaimResponse.item", `items on an ${outcome(ctx)} response`),
    (ctx) => ["error", "queued"].includes(outcome(ctx) ?? ""),
  ),
  rule("BV-00229", CR, (ctx) =>
    objects(response(ctx).total).flatMap((total, i) =>
      isObject(total.amount) && total.amount.currency !== "SAR"
        ? fail("BV-00229", `ClaimResponse.total[${i}].amount.currency`, "not SAR")
        : [],
    ),
  ),
  rule("BV-00458", CR, (ctx) =>
    items(ctx).flatMap((item, i) =>
      objects(item.adjudication).flatMap((adj, j) =>
        isObject(adj.amount) && adj.amount.currency !== "SAR"
          ? fail("BV-00458", `ClaimResponse.item[${i}].adjudication[${j}].amount.currency`, "not SAR")
          : [],
      ),
    ),
  ),
  ...["BV-00232", "BV-00331"].map((id) =>
    rule(id, CR, (ctx) =>
      response(ctx).status === "active"
        ? []
        : fail(id, "ClaimResponse.status", `"${str(response(ctx).status)}" is not "active"`),
    ),
  ),
  rule(
    "BV-00332",
    CR,
    (ctx) => (isPreauth(ctx) ? [] : fail("BV-00332", "ClaimResponse.use", "not preauthorization")),
    (ctx) => ctx.response.event === "priorauth-response",
  ),
  ...["BV-00333", "BV-00334"].map((id) =>
    rule(
      id,
      CR,
      (ctx) => (isClaim(ctx) ? [] : fail(id, "ClaimResponse.use", "not claim")),
      (ctx) => ctx.response.event === "claim-response",
    ),
  ),
  rule(
    "BV-00250",
    CR,
    (ctx) =>
      adjOutcome(response(ctx))
        ? []
        : fail("BV-00250", "ClaimResponse.extension:adjudication-outcome", "missing"),
    complete,
  ),
  rule(
    "BV-00463",
    CR,
    (ctx) =>
      DECIDED.includes(adjOutcome(response(ctx)) ?? "")
        ? []
        : fail(
            "BV-00463",
            "ClaimResponse.extension:adjudication-outcome",
            `${adjOutcome(response(ctx))} on a complete response`,
          ),
    complete,
  ),
  rule(
    "BV-00480",
    CR,
    eachItem("BV-00480", (item) => (adjOutcome(item) ? undefined : "no adjudication-outcome")),
    complete,
  ),
  rule(
    "BV-00371",
    CR,
    eachItem("BV-00371", (item) =>
      adjOutcome(item) === undefined || DECIDED.includes(adjOutcome(item) ?? "")
        ? undefined
        : `item outcome ${adjOutcome(item)}`,
    ),
    complete,
  ),
  rule(
    "BV-00386",
    CR,
    (ctx) => (str(response(ctx).preAuthRef) ? [] : fail("BV-00386", "ClaimResponse.preAuthRef", "missing")),
    and(complete, isPreauth),
  ),
  rule(
    "BV-00387",
    CR,
    (ctx) =>
      isObject(response(ctx).preAuthPeriod) ? [] : fail("BV-00387", "ClaimResponse.preAuthPeriod", "missing"),
    and(isPreauth, approvedOrPartial),
  ),
  rule(
    "BV-00390",
    CR,
    eachItem("BV-00390", (item) =>
      amount(adjudication(item, "benefit")) !== undefined
        ? undefined
        : "no benefit adjudication with an amount",
    ),
    (ctx) => complete(ctx) && (isClaim(ctx) || isPreauth(ctx)),
  ),
  rule(
    "BV-00391",
    CR,
    eachItem("BV-00391", (item) => {
      const seen = categories(item);
      const repeated = seen.find((category, i) => seen.indexOf(category) !== i);
      return repeated === undefined ? undefined : `category ${repeated} repeats`;
    }),
  ),
  rule(
    "BV-00392",
    CR,
    eachItem("BV-00392", (item) =>
      ["rejected", "partial"].includes(adjOutcome(item) ?? "") &&
      !objects(item.adjudication).some((adj) => isObject(adj.reason))
        ? `${adjOutcome(item)} item without a reason`
        : undefined,
    ),
  ),
  ...(
    [
      ["BV-00393", "approved"],
      ["BV-00394", "rejected"],
    ] as const
  ).map(([id, all]) =>
    rule(
      id,
      CR,
      (ctx) =>
        adjOutcome(response(ctx)) === all
          ? []
          : fail(id, "ClaimResponse.extension:adjudication-outcome", `every item is ${all}`),
      (ctx) => items(ctx).length > 0 && items(ctx).every((item) => adjOutcome(item) === all),
    ),
  ),
  rule(
    "BV-00397",
    CR,
    (ctx) =>
      adjOutcome(response(ctx)) === "partial"
        ? []
        : fail("BV-00397", "ClaimResponse.extension:adjudication-outcome", "items are mixed or partial"),
    (ctx) => {
      const kinds = new Set(
        items(ctx)
          .map((item) => adjOutcome(item))
          .filter((o) => o === "approved" || o === "rejected" || o === "partial"),
      );
      return kinds.has("partial") || kinds.size > 1;
    },
  ),
  rule(
    "BV-00395",
    CR,
    (ctx) =>
      adjOutcome(response(ctx)) === "pended"
        ? []
        : fail("BV-00395", "ClaimResponse.extension:adjudication-outcome", "not pended"),
    (ctx) => outcome(ctx) === "queued",
  ),
  rule(
    "BV-00396",
    CR,
    (ctx) =>
      adjOutcome(response(ctx)) === undefined
        ? []
        : fail("BV-00396", "ClaimResponse.extension:adjudication-outcome", "present on an error"),
    (ctx) => outcome(ctx) === "error",
  ),
  rule(
    "BV-00450",
    CR,
    eachItem("BV-00450", (item) => {
      const eligible = amount(adjudication(item, "eligible"));
      const submitted = amount(adjudication(item, "submitted"));
      return typeof eligible === "number" && typeof submitted === "number" && eligible > submitted
        ? `eligible ${eligible} > submitted ${submitted}`
        : undefined;
    }),
  ),
  rule(
    "BV-00493",
    CR,
    (ctx) =>
      codeOf(response(ctx).payeeType) === "other"
        ? fail("BV-00493", "ClaimResponse.payeeType", "other while the claim's payee is not")
        : [],
    (ctx) => hasClaim(ctx) && codeOf(isObject(claim(ctx)?.payee) ? claim(ctx)?.payee : undefined) !== "other",
  ),
  ...(
    [
      ["BV-00497", "tax", isClaim],
      ["BV-00498", "approved-quantity", isClaim],
      ["BV-00499", "approved-quantity", isPreauth],
    ] as const
  ).map(([id, category, when]) =>
    rule(
      id,
      CR,
      eachItem(id, (item) =>
        categories(item).includes(category) ? undefined : `no ${category} adjudication`,
      ),
      and(complete, when),
    ),
  ),
  rule(
    "BV-00505",
    CR,
    (ctx) =>
      objects(response(ctx).error).length
        ? []
        : fail("BV-00505", "ClaimResponse.error", "missing on an error"),
    (ctx) => outcome(ctx) === "error",
  ),
  rule("BV-00519", CR, (ctx) =>
    items(ctx).flatMap((item, i) =>
      objects(item.adjudication).flatMap((adj, j) =>
        ["approved-quantity", "approved-duration"].includes(codeOf(adj.category) ?? "") &&
        (adj.amount !== undefined || adj.value === undefined)
          ? fail("BV-00519", `ClaimResponse.item[${i}].adjudication[${j}]`, "a quantity carries only a value")
          : [],
      ),
    ),
  ),
  noteRefs("BV-00520", (item) => [item]),
  noteRefs("BV-00528", (item) => objects(item.detail)),
  noteRefs("BV-00529", (item) => objects(item.detail).flatMap((detail) => objects(detail.subDetail))),
  ...(
    [
      ["BV-00522", (item: JsonObject) => objects(item.detail)],
      ["BV-00523", (item: JsonObject) => objects(item.detail).flatMap((detail) => objects(detail.subDetail))],
    ] as const
  ).map(([id, below]) =>
    rule(
      id,
      CR,
      eachItem(id, (item) =>
        below(item).some((element) => {
          const numbers = Array.isArray(element.noteNumber) ? element.noteNumber : [];
          return new Set(numbers).size !== numbers.length;
        })
          ? "noteNumber repeats"
          : undefined,
      ),
    ),
  ),
  // the message event and ClaimResponse.use tell the same story
  rule(
    "BV-00165",
    CR,
    (ctx) => {
      const expected = ctx.response.event === "claim-response" ? "claim" : "preauthorization";
      return response(ctx).use === expected
        ? []
        : fail(
            "BV-00165",
            "MessageHeader.eventCoding",
            `${ctx.response.event} with use ${str(response(ctx).use)}`,
          );
    },
    (ctx) => ["claim-response", "priorauth-response"].includes(ctx.response.event ?? ""),
  ),
  rule(
    "BV-00521",
    CR,
    eachItem("BV-00521", (item) => {
      const numbers = Array.isArray(item.noteNumber) ? item.noteNumber : [];
      return new Set(numbers).size === numbers.length ? undefined : "noteNumber repeats";
    }),
  ),
  rule("BV-00524", CR, (ctx) => {
    const numbers = objects(response(ctx).processNote).map((note) => note.number);
    return new Set(numbers).size === numbers.length
      ? []
      : fail("BV-00524", "ClaimResponse.processNote", "number repeats");
  }),
  // the patient invoice of each claim item comes back on its response item
  rule("BV-00567", CR, (ctx) =>
    codeOf(extensionValue(response(ctx), "adjudication-reissue")) === "cancel"
      ? fail(
          "BV-00567",
          "ClaimResponse.extension:adjudication-reissue",
          "cancel is for advanced authorizations only",
        )
      : [],
  ),
  maxLength("BV-00317", "ClaimResponse.disposition", (r) => [r.disposition], 250),
  maxLength(
    "BV-00318",
    "ClaimResponse.processNote.text",
    (r) => objects(r.processNote).map((note) => note.text),
    2000,
  ),
  subTypeFor("BV-00799", ["professional"], ["op", "emr"]),
  subTypeFor("BV-00800", ["institutional"], ["ip"]),
  subTypeFor("BV-00609", ["oral"], ["op"]),
  subTypeFor("BV-00610", ["vision"], ["op"]),
  subTypeFor("BV-00611", ["pharmacy"], ["op"]),
  rule(
    "BV-00853",
    CR,
    (ctx) =>
      objects(response(ctx).insurance).length ? [] : fail("BV-00853", "ClaimResponse.insurance", "missing"),
    (ctx) => complete(ctx) && (isClaim(ctx) || isPreauth(ctx)),
  ),
  rule(
    "BV-00854",
    CR,
    (ctx) =>
      objects(response(ctx).insurance).filter((i) => i.focal === true).length === 1
        ? []
        : fail("BV-00854", "ClaimResponse.insurance", "not exactly one focal insurance"),
    (ctx) => objects(response(ctx).insurance).length > 0,
  ),
  // "on or before the date received": not after now (the checker runs when the message is sent)
  rule("BV-00065", CR, (ctx) => notFuture("BV-00065", "ClaimResponse.created", response(ctx).created)),
];
