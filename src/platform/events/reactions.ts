import type { TenantActor } from "../audit/audit.js";
import type { Queryable } from "../db/db.js";
import type { JobQueue } from "../jobs/queue.js";

/**
 * A change one area makes that another area acts on, inside the change's transaction: the owner declares a
 * topic and publishes on it, the reacting area subscribes when the application is assembled, so neither
 * imports the other's internals (prior authorization publishes its decisions; the FHIR area answers NPHIES
 * with them).
 */
export interface Topic<T> {
  /** `<area>.<what happened>`, e.g. `prior-auth.decided` */
  readonly name: string;
  /** carries the data's type only */
  readonly data?: T;
}

export const topic = <T>(name: string): Topic<T> => ({ name });

export type Reaction<T> = (tx: Queryable, jobs: JobQueue, actor: TenantActor, data: T) => Promise<void>;

// one map for every topic: a topic's reactions take that topic's data, as reactTo's signature ensures
const reactions = new Map<string, Map<string, Reaction<never>>>();

/** subscribes `reaction` (known by `name`, so subscribing again replaces it) to a topic */
export function reactTo<T>(on: Topic<T>, name: string, reaction: Reaction<T>): void {
  const byName = reactions.get(on.name) ?? new Map<string, Reaction<never>>();
  byName.set(name, reaction as Reaction<never>);
  reactions.set(on.name, byName);
}

/** runs every reaction to the topic, one after another, in the publisher's transaction */
export async function publish<T>(
  tx: Queryable,
  jobs: JobQueue,
  actor: TenantActor,
  on: Topic<T>,
  data: T,
): Promise<void> {
  for (const reaction of reactions.get(on.name)?.values() ?? [])
    await (reaction as Reaction<T>)(tx, jobs, actor, data);
}
