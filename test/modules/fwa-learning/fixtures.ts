import { batchBody, inpatientStay } from "../claims-batch/fixtures.js";

export const HEAVY = Array.from({ length: 12 }, (_, k) => `F-${k}`);
export const ORDINARY = Array.from({ length: 28 }, (_, k) => `N-${k}`);

/** an inpatient stay of `days` at `provider`, billing `amount`, its ids from `id` */
const stay = (id: string, provider: string, days: number, amount: number) =>
  inpatientStay(0, provider, days, amount, { claim_id: id, member_id: `M-${id}` });

/** batch k: twelve heavy billers with long, costly stays and 28 ordinary hospitals (ids vary by batch) */
export function learningBatch(k: number) {
  const claims = [
    ...HEAVY.flatMap((p, i) =>
      Array.from({ length: 6 + (i % 4) }, (_, n) =>
        stay(`${k}-${p}-${n}`, p, 9 + (n % 5), 25_000 + 100 * i + n),
      ),
    ),
    ...ORDINARY.flatMap((p, i) =>
      Array.from({ length: 1 + (i % 2) }, (_, n) =>
        stay(`${k}-${p}-${n}`, p, 2 + (n % 3), 4_000 + 10 * i + n),
      ),
    ),
  ];
  return batchBody(claims, { batch_reference_id: `LEARN-${k}-${Math.random().toString(36).slice(2, 8)}` });
}
