/** The services a claim bills, and their quantities: what fits the encounter's diagnosis, setting and member. */
import { poolOf } from "../population/diagnoses.js";
import {
  ER_VISIT_WEIGHTS,
  ER_VISITS,
  FALLBACK,
  fits,
  OFFICE_VISIT_WEIGHTS,
  OFFICE_VISITS,
  preventiveVisit,
  type Service,
  service,
} from "../population/services.js";
import type { Rng } from "../random.js";
import type { ClaimSpec } from "../types.js";
import type { Encounter } from "./encounters.js";

/**
 * The services billed: the setting's own first, then the diagnosis' pool, then the setting's fallback; as
 * many as the spec says, or drawn from the batch's items per claim.
 */
export function billedServices(
  e: Encounter,
  daysSupply: number,
  rng: Rng,
  items: { itemsMin: number; itemsMax: number },
  spec?: ClaimSpec,
): { picked: Service[]; quantity: number[] } {
  const { dx, setting, sex, age } = e;
  const n = spec?.items ?? rng.int(items.itemsMin, items.itemsMax);
  const picked: Service[] = [];
  const quantity: number[] = [];
  const take = (s: Service): void => {
    if (picked.length >= n) return;
    picked.push(s);
    const [lo, hi] = s.qty;
    if (s.code === "99232") quantity.push(Math.max(1, e.day - e.admission - 1));
    else if (setting === "pharmacy" && s.kind === "drug")
      quantity.push(dx.chronic === true ? daysSupply / 30 : rng.chance(0.9) ? 1 : 2);
    else quantity.push(lo === hi || rng.chance(0.75) ? lo : rng.int(lo, hi));
  };
  const draw = (codes: readonly string[], count: number): void => {
    const options: Service[] = [];
    for (const s of codes.map(service))
      if (fits(s, sex, age) && !picked.includes(s) && !options.includes(s)) options.push(s);
    for (let k = 0; k < count && options.length > 0; k += 1)
      take(options.splice(rng.int(0, options.length - 1), 1)[0] as Service);
  };
  if (spec?.visit !== undefined && (setting === "office" || setting === "opd" || setting === "er"))
    take(service(spec.visit));
  else if (setting === "office" || setting === "opd")
    take(
      service(
        dx.preventive === true
          ? preventiveVisit(age)
          : (OFFICE_VISITS[rng.weighted(OFFICE_VISIT_WEIGHTS)] as string),
      ),
    );
  else if (setting === "er") take(service(ER_VISITS[rng.weighted(ER_VISIT_WEIGHTS)] as string));
  else if (setting === "inpatient") {
    for (const code of dx.inpatient?.main ?? []) take(service(code));
    take(service("99222"));
    draw(e.day - e.admission >= 2 ? ["99238", "99232"] : ["99238"], 2);
  } else if (setting === "lab") {
    draw(dx.lab, 1);
    take(service("36415"));
  }
  if (spec?.extra !== undefined) draw(spec.extra, spec.extra.length);
  draw(poolOf(dx, setting), n);
  draw(FALLBACK[setting === "opd" ? "office" : setting], n);
  // more items than the catalogue offers: repeat what the claim already holds
  for (let k = picked.length > 1 ? 1 : 0; picked.length < n; k += 1) take(picked[k] as Service);
  return { picked, quantity };
}
