import { AppError } from "../platform/http/errors.js";

/** how many things of one kind a run created, and how many it found already there */
export interface Count {
  created: number;
  existing: number;
}

/**
 * What one run of the demo did, kind by kind. Every step either creates its thing or finds it there:
 * a conflict (409) from the domain service means "already there", which is what makes a second run a
 * no-op.
 */
export class Tally {
  readonly counts = new Map<string, Count>();

  count(kind: string, created: number, existing = 0): void {
    const count = this.counts.get(kind) ?? { created: 0, existing: 0 };
    count.created += created;
    count.existing += existing;
    this.counts.set(kind, count);
  }

  /** runs a create; true when it created, false when the service said it exists */
  async ensure(kind: string, create: () => Promise<unknown>): Promise<boolean> {
    try {
      await create();
      this.count(kind, 1);
      return true;
    } catch (error) {
      if (!isConflict(error)) throw error;
      this.count(kind, 0, 1);
      return false;
    }
  }

  /** whether this run wrote anything */
  get changed(): boolean {
    return [...this.counts.values()].some((count) => count.created > 0);
  }
}

export const isConflict = (error: unknown): error is AppError =>
  error instanceof AppError && error.status === 409;
