/**
 * Who, where, when and why of each claim: a member, a kind of care on a free day of the member's calendar,
 * and a diagnosis that fits the member's sex and age (their own long-term condition, or an acute one).
 */
import { ageOn } from "../../src/engine/fwa/columns/days.js";
import type { Config } from "../config.js";
import { DIAGNOSES, type Diagnosis, diagnosisWeight } from "../population/diagnoses.js";
import {
  CHRONIC,
  CLAIM_SHARE,
  HOSPITAL_SETTINGS,
  HOSPITAL_SHARE,
  PROVIDER_TYPES,
  type Setting,
} from "../population/shares.js";
import { bisect, cumulative, type Rng } from "../random.js";
import type { Population } from "../types.js";

const TYPES = PROVIDER_TYPES.length;
/** days kept clear between a member's claims with one kind of provider */
const NEAR = 3;

export const CHRONIC_DX = CHRONIC.map((code) => DIAGNOSES.find((d) => d.code === code) as Diagnosis);
export const ACUTE_DX = DIAGNOSES.filter((d) => d.chronic !== true);
const TYPE_SETTING: readonly Setting[] = ["office", "opd", "pharmacy", "lab", "radiology"];
export const SETTING_TYPE: Record<Setting, number> = {
  office: 0,
  opd: 1,
  er: 1,
  inpatient: 1,
  pharmacy: 2,
  lab: 3,
  radiology: 4,
};

const SETTINGS = Object.keys(SETTING_TYPE) as Setting[];
const acuteChoices = new Map<number, { list: Diagnosis[]; cum: Float64Array } | null>();
/** the acute diagnoses of a setting for a sex and age, with cumulative weights */
function acuteChoice(setting: Setting, sex: number, age: number) {
  const key = (SETTINGS.indexOf(setting) * 2 + sex) * 256 + Math.min(age, 255);
  let choice = acuteChoices.get(key);
  if (choice === undefined) {
    const list = ACUTE_DX.filter((d) => diagnosisWeight(d, setting, sex, age) > 0);
    const weights = list.map((d) => diagnosisWeight(d, setting, sex, age));
    choice = list.length === 0 ? null : { list, cum: cumulative(weights) };
    acuteChoices.set(key, choice);
  }
  return choice;
}

/** who, where, when and why */
export interface Encounter {
  member: number;
  sex: number;
  age: number;
  chronic: number;
  setting: Setting;
  provider: number;
  dx: Diagnosis;
  day: number;
  /** the first day of a stay (the claim date otherwise) */
  admission: number;
}

/** draws the encounters of the batch's claims, keeping each member's calendars */
export class Encounters {
  /**
   * A calendar per member and kind of care (clinics and hospitals share one), a bit per day modulo 32: a new
   * claim keeps NEAR days clear of the member's other claims there, so that a clean batch holds no accidental
   * duplicates or near-duplicates (the same service for the same member within days).
   */
  private readonly visited: Uint32Array;

  constructor(
    private readonly config: Pick<Config, "start" | "end">,
    private readonly pop: Population,
    private readonly rng: Rng,
  ) {
    this.visited = new Uint32Array(pop.memberId.length * (TYPES - 1));
  }

  /** whether a member's calendar (slot) is clear within `near` days of a day */
  private calendar(slot: number, day: number, near: number): boolean {
    let bits = 0;
    for (let k = -near; k <= near; k += 1) bits |= 1 << ((day - this.config.start + k) & 31);
    return ((this.visited[slot] as number) & bits) === 0;
  }

  /** the next claim's encounter, drawn on the batch's stream */
  next(): Encounter {
    const { rng, pop, config } = this;
    const members = pop.memberId.length;
    for (let attempt = 0; ; attempt += 1) {
      let member = rng.int(0, members - 1);
      if (pop.memberChronic[member] === 0 && rng.chance(0.35)) member = rng.int(0, members - 1);
      const type = attempt < 30 ? rng.weighted(CLAIM_SHARE) : 0;
      const setting =
        type === 1 ? (HOSPITAL_SETTINGS[rng.weighted(HOSPITAL_SHARE)] as Setting) : TYPE_SETTING[type];
      if (setting === undefined) continue;
      const slot = member * (TYPES - 1) + Math.max(0, type - 1);
      let day = config.start;
      let free = false;
      for (let tries = 0; tries < 4 && !free; tries += 1) {
        day = config.start + rng.int(0, config.end - config.start);
        free = this.calendar(slot, day, NEAR);
      }
      if (!free && attempt < 40) continue; // (a population too small for the batch crowds its claims)
      const sex = pop.memberSex[member] as number;
      const dob = pop.memberDob[member] as number;
      const age = ageOn(dob, day);
      const chronic = pop.memberChronic[member] as number;
      let dx: Diagnosis | undefined;
      if (chronic !== 0 && setting !== "er" && setting !== "inpatient" && rng.chance(0.5)) {
        const own = CHRONIC_DX.filter(
          (d, i) => (chronic & (1 << i)) !== 0 && diagnosisWeight(d, setting, sex, age) > 0,
        );
        if (own.length > 0) dx = rng.pick(own);
      }
      const choice = dx === undefined ? acuteChoice(setting, sex, age) : null;
      if (choice !== null) dx = choice.list[bisect(choice.cum, rng.next() * (choice.cum.at(-1) as number))];
      if (dx === undefined) continue;
      // a stay ends on the claim date, starts within the batch, and at the same age
      let admission = day;
      if (setting === "inpatient" && dx.inpatient !== undefined) {
        admission = Math.max(config.start, day - rng.int(dx.inpatient.los[0], dx.inpatient.los[1]));
        while (ageOn(dob, admission) !== age) admission += 1;
      }
      for (let d = admission; d <= day; d += 1)
        this.visited[slot] = (this.visited[slot] as number) | (1 << ((d - config.start) & 31));
      const provider = pop.memberProvider[member * TYPES + SETTING_TYPE[setting]] as number;
      return { member, sex, age, chronic, setting, provider, dx, day, admission };
    }
  }
}
