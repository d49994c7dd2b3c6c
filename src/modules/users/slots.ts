/** a counting semaphore: `running` at once, up to `waiting` queued in order, the rest refused at once */
export interface Slots {
  /** a slot (resolves once one is free; call the release it gives), or undefined when all are taken */
  acquire(): Promise<() => void> | undefined;
}

export function createSlots(running: number, waiting: number): Slots {
  let busy = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next === undefined) busy -= 1;
    else next();
  };
  return {
    acquire() {
      if (busy < running) {
        busy += 1;
        return Promise.resolve(release);
      }
      if (queue.length >= waiting) return undefined;
      return new Promise((resolve) => queue.push(() => resolve(release)));
    },
  };
}
