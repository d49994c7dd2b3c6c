import type { TenantActor } from "../audit/audit.js";
import type { Queryable } from "../db/db.js";
import type { JobQueue } from "../jobs/queue.js";

/**
 * A change one area makes that another area acts on, inside the change's transaction: the owner publishes
 * it, the reacting area subscribes when the application is assembled, so neither imports the other (the
 * prior-authorization area publishes its decisions; the FHIR area answers NPHIES with them).
 */
export interface DomainEvent {
  /** `<area>.<what happened>`, e.g. `prior-auth.decided` */
  type: string;
  data: Record<string, unknown>;
}

export type Reaction = (
  tx: Queryable,
  jobs: JobQueue,
  actor: TenantActor,
  event: DomainEvent,
) => Promise<void>;

const reactions = new Map<string, Map<string, Reaction>>();

/** subscribes `reaction` (known by `name`, so subscribing again replaces it) to events of `type` */
export function reactTo(type: string, name: string, reaction: Reaction): void {
  const byName = reactions.get(type) ?? new Map<string, Reaction>();
  byName.set(name, reaction);
  reactions.set(type, byName);
}

/** runs every reaction to the event, one after another, in the publisher's transaction */
export async function publish(
  tx: Queryable,
  jobs: JobQueue,
  actor: TenantActor,
  event: DomainEvent,
): Promise<void> {
  for (const reaction of reactions.get(event.type)?.values() ?? []) await reaction(tx, jobs, actor, event);
}
