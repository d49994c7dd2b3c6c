import {
  and,
  approvedOrPartial,
  CR,
  claim,
  claimItems,
  complete,
  eachItem,
  hasClaim,
  isClaim,
  isPreauth,
  items,
  outcome,
  response,
} from "./claim-response-common.js";
import { type Ctx, identifierKeys, referencedKeys, resolve } from "./context.js";
import { codeOf, extensionValue, type JsonObject, objects, str } from "./json.js";
import { fail, type Rule, rule } from "./rule.js";

/** how a ClaimResponse relates to the Claim it answers */
const sameAsClaim = (id: string, element: string, read: (resource: JsonObject) => unknown) =>
  rule(
    id,
    CR,
    (ctx) => {
      const ours = JSON.stringify(read(response(ctx)) ?? null);
      const theirs = JSON.stringify(read(claim(ctx) ?? {}) ?? null);
      return ours === theirs
        ? []
        : fail(id, `ClaimResponse.${element}`, `${ours} differs from the claim's ${theirs}`);
    },
    hasClaim,
  );

/** the claim's identifier is what ClaimResponse.request names */
const requestIsClaim = (id: string) =>
  rule(
    id,
    CR,
    (ctx) => {
      const named = identifierKeys(response(ctx).request);
      const claimIds = identifierKeys(claim(ctx));
      return named.some((key) => claimIds.includes(key))
        ? []
        : fail(
            id,
            "ClaimResponse.request",
            `${named.join(",") || "no identifier"} is not the claim's ${claimIds.join(",")}`,
          );
    },
    hasClaim,
  );

const sequencesInClaim = (id: string, when: (ctx: Ctx) => boolean) =>
  rule(
    id,
    CR,
    eachItem(id, (item, ctx) => {
      const known = claimItems(ctx).map((claimed) => claimed.sequence);
      return known.includes(item.itemSequence)
        ? undefined
        : `itemSequence ${str(item.itemSequence) ?? item.itemSequence} is not a claim item`;
    }),
    and(hasClaim, when),
  );

const uniqueSequences = (id: string, when: (ctx: Ctx) => boolean) =>
  rule(
    id,
    CR,
    (ctx) => {
      const seen = items(ctx).map((item) => item.itemSequence);
      return seen.flatMap((sequence, i) =>
        seen.indexOf(sequence) !== i
          ? fail(id, `ClaimResponse.item[${i}].itemSequence`, `${sequence} repeats`)
          : [],
      );
    },
    when,
  );

/** detail sequences: unique within the item, and the claim item's detail sequences */
const detailRules = (unique: string, match: string, when: (ctx: Ctx) => boolean): Rule[] => [
  rule(
    unique,
    CR,
    (ctx) =>
      items(ctx).flatMap((item, i) => {
        const seen = objects(item.detail).map((detail) => detail.detailSequence);
        return seen.flatMap((s, j) =>
          seen.indexOf(s) !== j ? fail(unique, `ClaimResponse.item[${i}].detail[${j}]`, `${s} repeats`) : [],
        );
      }),
    when,
  ),
  rule(
    match,
    CR,
    (ctx) =>
      items(ctx).flatMap((item, i) => {
        const claimed = claimItems(ctx).find((c) => c.sequence === item.itemSequence);
        const known = objects(claimed?.detail).map((detail) => detail.sequence);
        return objects(item.detail).flatMap((detail, j) =>
          known.includes(detail.detailSequence)
            ? []
            : fail(match, `ClaimResponse.item[${i}].detail[${j}]`, "not a detail of the claim item"),
        );
      }),
    and(hasClaim, when),
  ),
];

/** the transfer extensions answer a claim with extension-transfer = true */
const transferRequested = (ctx: Ctx) => extensionValue(claim(ctx), "transfer") === true;
const transferRule = (id: string, name: string, wanted: boolean) =>
  rule(
    id,
    CR,
    (ctx) => {
      const present = extensionValue(response(ctx), name) !== undefined;
      return present === wanted
        ? []
        : fail(
            id,
            `ClaimResponse.extension:${name}`,
            wanted ? "missing for a transfer" : "present without a transfer",
          );
    },
    wanted
      ? and(hasClaim, isPreauth, complete, approvedOrPartial, transferRequested)
      : and(hasClaim, (ctx) => !transferRequested(ctx)),
  );

export const CLAIM_RESPONSE_BUSINESS: Rule[] = [
  requestIsClaim("BV-00003"),
  requestIsClaim("BV-00098"),
  sequencesInClaim("BV-00019", () => true),
  sequencesInClaim("BV-00046", isClaim),
  sequencesInClaim("BV-00120", isPreauth),
  uniqueSequences("BV-00045", isClaim),
  uniqueSequences("BV-00119", isPreauth),
  ...detailRules("BV-00025", "BV-00026", isClaim),
  ...detailRules("BV-00114", "BV-00115", isPreauth),
  // subDetail sequences: unique within the detail, and the claim detail's subDetail sequences
  ...["BV-00069", "BV-00124"].map((id) =>
    rule(id, CR, (ctx) =>
      items(ctx).flatMap((item, i) =>
        objects(item.detail).flatMap((detail, j) => {
          const seen = objects(detail.subDetail).map((sub) => sub.subDetailSequence);
          return seen.length === new Set(seen).size
            ? []
            : fail(id, `ClaimResponse.item[${i}].detail[${j}].subDetail`, "subDetailSequence repeats");
        }),
      ),
    ),
  ),
  rule(
    "BV-00070",
    CR,
    (ctx) =>
      items(ctx).flatMap((item, i) => {
        const claimed = claimItems(ctx).find((c) => c.sequence === item.itemSequence);
        return objects(item.detail).flatMap((detail, j) => {
          const claimDetail = objects(claimed?.detail).find((d) => d.sequence === detail.detailSequence);
          const known = objects(claimDetail?.subDetail).map((sub) => sub.sequence);
          return objects(detail.subDetail).flatMap((sub, k) =>
            known.includes(sub.subDetailSequence)
              ? []
              : fail(
                  "BV-00070",
                  `ClaimResponse.item[${i}].detail[${j}].subDetail[${k}]`,
                  "not a subDetail of the claim detail",
                ),
          );
        });
      }),
    hasClaim,
  ),
  ...["BV-00020", "BV-00255"].map((id) =>
    rule(
      id,
      CR,
      (ctx) =>
        items(ctx).length > 0 ? [] : fail(id, "ClaimResponse.item", "no items on a complete response"),
      complete,
    ),
  ),
  // every claim item is answered when the response is complete
  ...["BV-00097", "IC-01432"].map((id) =>
    rule(
      id,
      CR,
      (ctx) =>
        claimItems(ctx).flatMap((claimed) =>
          items(ctx).some((item) => item.itemSequence === claimed.sequence)
            ? []
            : fail(id, "ClaimResponse.item", `claim item ${claimed.sequence} is not answered`),
        ),
      and(hasClaim, complete),
    ),
  ),
  rule(
    "BV-00022",
    CR,
    (ctx) => (objects(response(ctx).total).length ? [] : fail("BV-00022", "ClaimResponse.total", "missing")),
    and(isClaim, complete),
  ),
  rule(
    "BV-00023",
    CR,
    (ctx) => (objects(response(ctx).total).length ? [] : fail("BV-00023", "ClaimResponse.total", "missing")),
    (ctx) => (isClaim(ctx) || isPreauth(ctx)) && outcome(ctx) !== "error",
  ),
  ...["BV-00038", "BV-00117"].map((id, i) =>
    rule(
      id,
      CR,
      (ctx) => {
        const ours = referencedKeys(ctx.response, response(ctx).insurer);
        const theirs = referencedKeys(ctx.request, claim(ctx)?.insurer);
        return ours.some((key) => theirs.includes(key))
          ? []
          : fail(id, "ClaimResponse.insurer", `${ours} is not the claim's insurer ${theirs}`);
      },
      and(hasClaim, i === 0 ? isClaim : isPreauth),
    ),
  ),
  sameAsClaim("BV-00072", "type", (r) => codeOf(r.type)),
  sameAsClaim("BV-00073", "use", (r) => r.use),
  // a claim that names no sub-type (older senders) leaves nothing to differ from: IC-01567 still asks one
  rule(
    "BV-00081",
    CR,
    (ctx) => {
      const theirs = codeOf(claim(ctx)?.subType);
      const ours = codeOf(response(ctx).subType);
      return theirs === undefined || ours === theirs
        ? []
        : fail(
            "BV-00081",
            "ClaimResponse.subType",
            `${JSON.stringify(ours ?? null)} differs from the claim's ${theirs}`,
          );
    },
    hasClaim,
  ),
  // the same patient: the resolved Patient's identifiers meet the claim patient's
  rule(
    "BV-00074",
    CR,
    (ctx) => {
      const ours = referencedKeys(ctx.response, response(ctx).patient);
      const theirs = referencedKeys(ctx.request, claim(ctx)?.patient);
      return ours.some((key) => theirs.includes(key))
        ? []
        : fail("BV-00074", "ClaimResponse.patient", `${ours} is not the claim's patient ${theirs}`);
    },
    hasClaim,
  ),
  ...["BV-00534", "BV-00537"].map((id) =>
    rule(
      id,
      CR,
      eachItem(id, (item, ctx) => {
        const claimed = claimItems(ctx).find((c) => c.sequence === item.itemSequence);
        const theirs = extensionValue(claimed, "patientInvoice");
        if (theirs === undefined) return undefined;
        const ours = extensionValue(item, "patientInvoice");
        if (ours === undefined) return id === "BV-00537" ? "patientInvoice missing" : undefined;
        return id === "BV-00534" &&
          JSON.stringify(identifierKeys({ identifier: ours })) !==
            JSON.stringify(identifierKeys({ identifier: theirs }))
          ? "patientInvoice differs from the claim item's"
          : undefined;
      }),
      hasClaim,
    ),
  ),
  transferRule("BV-00546", "transferAuthorizationNumber", true),
  transferRule("BV-00547", "transferAuthorizationPeriod", true),
  transferRule("BV-00562", "transferAuthorizationProvider", true),
  transferRule("BV-00548", "transferAuthorizationNumber", false),
  transferRule("BV-00549", "transferAuthorizationPeriod", false),
  transferRule("BV-00550", "transferAuthorizationProvider", false),
  ...(
    [
      ["BV-00551", "Practitioner"],
      ["BV-00552", "Organization"],
    ] as const
  ).map(([id, type]) =>
    rule(id, CR, (ctx) => {
      const target = resolve(ctx.response, extensionValue(response(ctx), "transferAuthorizationProvider"));
      return target?.resourceType === type && target.name === undefined
        ? fail(id, "ClaimResponse.extension:transferAuthorizationProvider", `${type} without a name`)
        : [];
    }),
  ),
];
