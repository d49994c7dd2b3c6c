/** what a driver keeps of a transaction's last step (`Transaction.commitWith`) */
export interface LastStep {
  /** inside the step: the statements sent now carry the COMMIT */
  committing: boolean;
  /** the step failed before its COMMIT went: the COMMIT is not sent, and the transaction rolls back */
  failed: boolean;
}

/**
 * Runs the last step `last`, marking `step` while it runs and when it fails (a throw before any await
 * too). A driver sends the COMMIT after `whenSettled`, by when a failure of the step's own code shows.
 */
export async function runLastStep<T>(step: LastStep, last: () => Promise<T>): Promise<T> {
  step.committing = true;
  const running = new Promise<T>((resolve) => resolve(last()));
  running.catch(() => {
    step.failed = true;
  });
  try {
    return await running;
  } finally {
    step.committing = false;
  }
}

/** microtask turns a step's failure takes to show, with margin: its promise, `Promise.all`, `runLastStep` */
const TURNS_TO_FAIL = 16;

/**
 * Resolves once a step that throws in its own code before its first await (before or after sending its
 * statements) has failed: a few microtask turns, so the COMMIT is not held back behind other work (a
 * statement's failure comes later, from the database, which rolls the transaction back itself)
 */
export async function whenSettled(): Promise<void> {
  for (let turn = 0; turn < TURNS_TO_FAIL; turn++) await undefined;
}
