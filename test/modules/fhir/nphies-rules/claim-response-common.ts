import type { Ctx } from "./context.js";
import { codeOf, extensionValue, isObject, type JsonObject, objects, str } from "./json.js";
import { fail } from "./rule.js";

/** what the ClaimResponse rules share: the response, the claim it answers, their items */
export const CR = "ClaimResponse";
export const ADJ_OUTCOME = "http://nphies.sa/terminology/CodeSystem/adjudication-outcome";
export const DECIDED = ["approved", "partial", "rejected", "not-required"];

export const response = (ctx: Ctx): JsonObject =>
  ctx.response.focal?.resourceType === CR ? ctx.response.focal : {};
export const claim = (ctx: Ctx): JsonObject | undefined =>
  ctx.request?.focal?.resourceType === "Claim" ? ctx.request.focal : undefined;
export const items = (ctx: Ctx) => objects(response(ctx).item);
export const claimItems = (ctx: Ctx) => objects(claim(ctx)?.item);
export const outcome = (ctx: Ctx) => str(response(ctx).outcome);
export const complete = (ctx: Ctx) => outcome(ctx) === "complete";
export const use = (ctx: Ctx) => str(response(ctx).use);
export const adjOutcome = (element: unknown) =>
  codeOf(extensionValue(element, "adjudication-outcome"), ADJ_OUTCOME);
export const categories = (element: JsonObject) =>
  objects(element.adjudication).map((adj) => codeOf(adj.category) ?? "");
export const adjudication = (element: JsonObject, category: string) =>
  objects(element.adjudication).find((adj) => codeOf(adj.category) === category);
export const amount = (adj: JsonObject | undefined) => (isObject(adj?.amount) ? adj.amount.value : undefined);
export const hasClaim = (ctx: Ctx) => claim(ctx) !== undefined;
export const isPreauth = (ctx: Ctx) => use(ctx) === "preauthorization";
export const isClaim = (ctx: Ctx) => use(ctx) === "claim";
export const and =
  (...conditions: ((ctx: Ctx) => boolean)[]) =>
  (ctx: Ctx) =>
    conditions.every((condition) => condition(ctx));

/** a check over each response item, with its path */
export const eachItem =
  (id: string, check: (item: JsonObject, ctx: Ctx) => string | undefined) => (ctx: Ctx) =>
    items(ctx).flatMap((item, i) => {
      const message = check(item, ctx);
      return message ? fail(id, `ClaimResponse.item[${i}]`, message) : [];
    });
export const approvedOrPartial = (ctx: Ctx) =>
  ["approved", "partial"].includes(adjOutcome(response(ctx)) ?? "");
