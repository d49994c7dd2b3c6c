/**
 * Length-of-stay outliers (docs/architecture.md section 5). An inpatient claim (claim sub-type IN_PATIENT)
 * with an admission and a discharge date (the claim's, else the earliest admission and latest discharge of
 * its items) has a stay of discharge - admission days (0 for a same-day stay). Inverted dates are left to the
 * rule that rejects them.
 *
 * A stay is compared with the batch's stays of the same primary diagnosis when there are enough of them
 * (STAY.minGroup); else with all stays of its ICD-10 category (first three characters), else of its chapter
 * letter, else with every stay of the batch. The statistic is the robust z of ln(1 + days) (stays are skewed
 * to the right: their log is closer to symmetric), reported when the stay is also at least STAY.minRatio
 * times the group's median and STAY.minExcessDays longer. A second measure, how many times the stay doubles
 * the group's upper quartile, catches stays of diagnoses whose usual stays spread evenly over a few days (1
 * to 3 days: a 7-day stay is far out, yet its z is small); the score is the larger of the two. The finding is
 * on every item of the claim.
 */
import { CLAIM_SUB_TYPE, textOf } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { flag, supportingFlag } from "../findings.js";
import { STAY } from "../sensitivity.js";
import { diagnosisCategories } from "../stats/batch.js";
import { count, num } from "../stats/format.js";
import {
  type Groups,
  groupBy,
  quantileSorted,
  type RobustFit,
  robustFit,
  robustZ,
  scoreOf,
} from "../stats/robust.js";
import { type ColumnarBatchView, type Detector, NO_DATE } from "../types.js";

export const STAY_OUTLIER_CODE = "FWA-LOS-01";

const IN_PATIENT = CLAIM_SUB_TYPE.IN_PATIENT;

/** admission and discharge of claim c into `out` ([admission, discharge]); false when it has no stay */
function stayOf(batch: ColumnarBatchView, c: number, out: Int32Array): boolean {
  let admitted = batch.admissionDate[c] as number;
  let discharged = batch.dischargeDate[c] as number;
  if (admitted === NO_DATE || discharged === NO_DATE) {
    admitted = NO_DATE;
    discharged = NO_DATE;
    const end = batch.firstItem[c + 1] as number;
    for (let i = batch.firstItem[c] as number; i < end; i += 1) {
      const a = batch.itemAdmission[i] as number;
      const d = batch.itemDischarge[i] as number;
      if (a === NO_DATE || d === NO_DATE) continue;
      if (admitted === NO_DATE || a < admitted) admitted = a;
      if (discharged === NO_DATE || d > discharged) discharged = d;
    }
  }
  if (admitted === NO_DATE || discharged === NO_DATE || discharged < admitted) return false;
  out[0] = admitted;
  out[1] = discharged;
  return true;
}

/** comparison levels, narrowest first */
const DIAGNOSIS = 0;
const CATEGORY = 1;
const LETTER = 2;
const ALL = 3;

export const stayOutlierDetector: Detector = {
  name: "stay-outlier",
  run(batch, sink) {
    const claims = batch.claimCount;
    const days = new Int32Array(claims).fill(-1);
    const admission = new Int32Array(claims);
    const span = new Int32Array(2);
    const categories = diagnosisCategories(batch);
    // each stay's key at each level (-1 for claims without a stay): diagnosis id, category, letter, 0
    const keys: Int32Array[] = [0, 1, 2, 3].map(() => new Int32Array(claims).fill(-1));
    const keyOf = (level: number, c: number): number => (keys[level] as Int32Array)[c] as number;
    const keyCounts = [batch.strings.length, categories.texts.length, 128, 1];
    let stays = 0;
    for (let c = 0; c < claims; c += 1) {
      if (batch.claimSubType[c] !== IN_PATIENT || !stayOf(batch, c, span)) continue;
      admission[c] = span[0] as number;
      days[c] = (span[1] as number) - (span[0] as number);
      stays += 1;
      const dx = batch.primaryDiagnosis[c] as number;
      (keys[DIAGNOSIS] as Int32Array)[c] = dx;
      (keys[CATEGORY] as Int32Array)[c] = categories.of[dx] as number;
      (keys[LETTER] as Int32Array)[c] = textOf(batch, dx).charCodeAt(0) & 127;
      (keys[ALL] as Int32Array)[c] = 0;
    }
    if (stays < STAY.minGroup) return;
    const groups = keys.map((key, level) => groupBy(key, keyCounts[level] as number));
    const size = (level: number, key: number): number => {
      const { start } = groups[level] as Groups;
      return (start[key + 1] as number) - (start[key] as number);
    };
    const name = (level: number, c: number): string => {
      const dx = batch.primaryDiagnosis[c] as number;
      if (level === DIAGNOSIS) return `diagnosis ${textOf(batch, dx)}`;
      if (level === CATEGORY) return `diagnosis category ${categories.texts[categories.of[dx] as number]}`;
      const letter = textOf(batch, dx).slice(0, 1);
      return level === LETTER ? `diagnoses ${letter}00-${letter}99` : "all inpatient diagnoses";
    };

    // each group's fit over ln(1 + days), computed once, when a stay needs it
    const fits = new Map<number, { fit: RobustFit; n: number; upperQuartile: number }>();
    const logs = new Float64Array(stays);
    const fitOf = (level: number, key: number): { fit: RobustFit; n: number; upperQuartile: number } => {
      const id = key * 4 + level;
      let entry = fits.get(id);
      if (entry === undefined) {
        const { start, order } = groups[level] as Groups;
        const from = start[key] as number;
        const n = (start[key + 1] as number) - from;
        for (let r = 0; r < n; r += 1) logs[r] = Math.log1p(days[order[from + r] as number] as number);
        logs.subarray(0, n).sort();
        const upperQuartile = Math.expm1(quantileSorted(logs, 0, n, 0.75));
        entry = { fit: robustFit(logs, 0, n, STAY.scaleFloor), n, upperQuartile };
        fits.set(id, entry);
      }
      return entry;
    };

    for (let c = 0; c < claims; c += 1) {
      const stay = days[c] as number;
      if (stay < 0) continue;
      // the narrowest level with enough stays
      let level = DIAGNOSIS;
      while (level < ALL && size(level, keyOf(level, c)) < STAY.minGroup) level += 1;
      const { fit, n, upperQuartile } = fitOf(level, keyOf(level, c));
      const median = Math.expm1(fit.median);
      if (stay < STAY.minRatio * median || stay - median < STAY.minExcessDays) continue;
      const z = robustZ(Math.log1p(stay), fit);
      // doublings past the upper quartile: stays of a diagnosis spread evenly over a few days have a wide
      // spread for their range, so a stay twice the longest usual ones can sit at a z of only 2
      const past = Math.log2(stay / Math.max(1, upperQuartile));
      const score = Math.max(scoreOf(z, STAY.curve), scoreOf(past, STAY.pastUpperQuartile));
      if (score <= 0) continue;
      const from = admission[c] as number;
      const ratio = median >= 1 ? `, ${num(stay / median, 1)} times` : "";
      const cause =
        `stay of ${count(stay)} days (${isoOfDay(from)} to ${isoOfDay(from + stay)}) against the batch ` +
        `median of ${num(median, 1)} days for ${name(level, c)} over ${count(n)} stays` +
        `${ratio}, ${num(stay / Math.max(1, upperQuartile), 1)} times the upper quartile of ` +
        `${num(upperQuartile, 1)} days (robust z ${num(z, 1)})`;
      sink.claim(
        c,
        (STAY.supporting ? supportingFlag : flag)(
          STAY_OUTLIER_CODE,
          "Stay far longer than the batch's for the diagnosis",
          cause,
          score,
        ),
      );
    }
  },
};
