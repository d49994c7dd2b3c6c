/**
 * What a check says about an item. Checks are independent pure functions; `decide` merges their findings and
 * settles the amounts, so no check needs to know what the others decided.
 */
import type { Reason, RequestItem, ServiceType } from "./types.js";

export type Finding =
  /** nothing of the item can be approved */
  | { kind: "reject"; reason: Reason }
  /** at most `quantity` units; `days` caps the approved duration too (null: unchanged) */
  | { kind: "cap"; quantity: number; days: number | null; reason: Reason };

export interface CheckResult {
  /** by position in request.items */
  findings: Finding[][];
  /** request-level alerts */
  alerts: string[];
}

export const noFindings = (items: readonly RequestItem[]): Finding[][] => items.map(() => []);

export const rejectAll = (items: readonly RequestItem[], reasons: readonly Reason[]): Finding[][] =>
  items.map(() => reasons.map((reason) => ({ kind: "reject", reason })));

/** the item's own service type or its NPHIES type is `type` */
export const isType = (item: RequestItem, type: ServiceType): boolean =>
  item.serviceType === type || item.nphiesType === type;

/** 1-based position, as people count items in a message */
export const position = (item: RequestItem): number => item.index + 1;
