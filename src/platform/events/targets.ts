import type { Queryable } from "../db/db.js";
import type { EventAudience } from "./outbox.js";

/**
 * The columns of event_deliveries that name a delivery's target, one per kind of target, each with its
 * foreign key and its indexes: the SQL type a missing target of that kind is cast to, the key of its
 * delivery jobs (`<key>:<id>`: deliveries of a subject to a target keep their order) and the name the
 * delivery metrics label it with.
 */
export const TARGET_COLUMNS = {
  webhook_id: { type: "integer", key: "w", name: "webhook" },
  subscription_id: { type: "uuid", key: "s", name: "subscription" },
} as const;
export type TargetColumn = keyof typeof TARGET_COLUMNS;
export const TARGET_COLUMN_NAMES = Object.keys(TARGET_COLUMNS) as TargetColumn[];

/**
 * A kind of target events are delivered to, given by the module that owns its table: the platform reaches
 * targets only through this SQL, composed into its own statements, so an event and its deliveries are
 * still one statement in the change's transaction and an attempt reads its delivery and target at once.
 */
export interface DeliveryTargets {
  /** the column of event_deliveries that names a target of this kind */
  readonly column: TargetColumn;
  /** the kind, as the audit log names it */
  readonly entityType: string;
  /** what targets of this kind match the event on (one text, the parameter of `selectReceivers`); undefined: none receive it */
  receives(event: EventAudience): string | undefined;
  /** a SELECT of `id`, in delivery order, of the tenant's ($1) active targets matching `param` */
  selectReceivers(param: string): string;
  /** a SELECT of `id` of the tenant's ($1) active target whose id is `param` */
  selectOne(param: string): string;
  /** a SELECT of `url`, `secret` and `active` (boolean) of the target whose id is the SQL expression `id` */
  selectAddress(id: string): string;
  /** makes an active target of the tenant inactive; false when it was not active */
  deactivate(tx: Queryable, tenantId: number, id: string, reason: "removed" | "gone"): Promise<boolean>;
}

// set where the application and the worker are assembled (src/jobs.ts): the platform imports no module
let wired: readonly DeliveryTargets[] = [];

/** the kinds of target events go to, in every process that emits or delivers them; returns them */
export function deliverEventsTo(kinds: readonly DeliveryTargets[]): readonly DeliveryTargets[] {
  wired = kinds;
  return kinds;
}

/** the kinds of target wired; an event emitted before they are would silently reach nobody */
export function wiredTargets(): readonly DeliveryTargets[] {
  if (wired.length === 0)
    throw new Error("no kinds of event target are wired: jobDefinitions (src/jobs.ts) names them");
  return wired;
}
