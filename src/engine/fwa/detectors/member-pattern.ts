/**
 * Member patterns (docs/architecture.md section 5): members who see many providers, and members with
 * excessive visits, against the batch's own members. Four counts per member:
 * - complaint providers: the most distinct providers that billed the member for one complaint (the ICD-10
 *   category of the primary diagnosis) over the batch: "doctor shopping";
 * - complaint providers within MEMBER.windowDays: the same, within any such span of days (shopping is many
 *   doctors in a short time; spread over months, a count can be ordinary for members without a usual clinic);
 * - providers: distinct providers that billed the member, whatever the complaint;
 * - visits: the member's claims in the batch.
 * Each count's distribution over the batch's members gives a median and a robust scale (robustFit with a
 * floor of MEMBER.scaleFloor, most members having one or two claims so the MAD is often 0; for visits and
 * providers in all also the upper spread, both being right-skewed by nature: a busy member is no anomaly
 * until far out in the tail; not for complaint providers, which a member's many visits to a usual doctor do
 * not raise), a robust z per member and a score (MEMBER curves), reported only above a least count. The
 * member's findings reach its claims: the complaint's claims carry the stronger of the complaint and the
 * general evidence, its other claims the general evidence (providers, visits); one finding per claim, naming
 * every count that stands out. The member's score (the strongest) goes to `sink.entity("member", ...)`.
 */
import { textOf } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { flag } from "../findings.js";
import { MEMBER } from "../sensitivity.js";
import { claimsByMember, diagnosisCategories } from "../stats/batch.js";
import { count, num } from "../stats/format.js";
import { type RobustFit, robustFitOf, robustZ, scoreOf } from "../stats/robust.js";
import type { ColumnarBatchView, Detector } from "../types.js";

/** a member seen by unusually many providers (for one complaint, or in all) */
export const MEMBER_PATTERN_PROVIDERS_CODE = "FWA-MEMBER-01";
/** a member with excessive visits */
export const MEMBER_PATTERN_VISITS_CODE = "FWA-MEMBER-02";

const fitOf = (values: Float64Array, upper: boolean): RobustFit =>
  robustFitOf(values, MEMBER.scaleFloor, upper);

/** per member (compact index k), what its claims show */
interface Counts {
  member: Int32Array;
  visits: Float64Array;
  providers: Float64Array;
  /** most distinct providers for one complaint, and that complaint (category index) */
  complaintProviders: Float64Array;
  complaint: Int32Array;
  /** most distinct providers for one complaint within the window, the complaint and the window's first day */
  windowProviders: Float64Array;
  windowComplaint: Int32Array;
  windowStart: Int32Array;
}

function countMembers(batch: ColumnarBatchView): Counts | undefined {
  const { start, order } = claimsByMember(batch);
  const categories = diagnosisCategories(batch);
  const ids = start.length - 1;
  let members = 0;
  for (let m = 0; m < ids; m += 1) if ((start[m + 1] as number) > (start[m] as number)) members += 1;
  if (members < MEMBER.minMembers) return undefined;
  const counts: Counts = {
    member: new Int32Array(members),
    visits: new Float64Array(members),
    providers: new Float64Array(members),
    complaintProviders: new Float64Array(members),
    complaint: new Int32Array(members),
    windowProviders: new Float64Array(members),
    windowComplaint: new Int32Array(members),
    windowStart: new Int32Array(members),
  };
  const seenProvider = new Int32Array(batch.strings.length).fill(-1);
  // per provider: claims in the current complaint run, and in the current window
  const inRun = new Int32Array(batch.strings.length);
  const inWindow = new Int32Array(batch.strings.length);
  const categoryOf = (c: number): number => categories.of[batch.primaryDiagnosis[c] as number] as number;
  const byCategory = (a: number, b: number): number => categoryOf(a) - categoryOf(b);
  const claims: number[] = [];
  let k = 0;
  for (let m = 0; m < ids; m += 1) {
    const from = start[m] as number;
    const to = start[m + 1] as number;
    if (to === from) continue;
    counts.member[k] = m;
    counts.visits[k] = to - from;
    let distinct = 0;
    for (let r = from; r < to; r += 1) {
      const provider = batch.providerId[order[r] as number] as number;
      if (seenProvider[provider] !== m) {
        seenProvider[provider] = m;
        distinct += 1;
      }
    }
    counts.providers[k] = distinct;
    // the member's claims by complaint, each complaint's in date order (a stable sort of date-ordered claims)
    claims.length = 0;
    for (let r = from; r < to; r += 1) claims.push(order[r] as number);
    if (claims.length > 1) claims.sort(byCategory);
    let bestTotal = 0;
    let bestWindow = 0;
    for (let u = 0; u < claims.length; ) {
      const category = categoryOf(claims[u] as number);
      let v = u;
      while (v < claims.length && categoryOf(claims[v] as number) === category) v += 1;
      let total = 0;
      let window = 0;
      let lo = u;
      for (let hi = u; hi < v; hi += 1) {
        const c = claims[hi] as number;
        const provider = batch.providerId[c] as number;
        inRun[provider] = (inRun[provider] as number) + 1;
        if (inRun[provider] === 1) total += 1;
        inWindow[provider] = (inWindow[provider] as number) + 1;
        if (inWindow[provider] === 1) window += 1;
        const day = batch.claimDate[c] as number;
        while ((batch.claimDate[claims[lo] as number] as number) <= day - MEMBER.windowDays) {
          const out = batch.providerId[claims[lo] as number] as number;
          inWindow[out] = (inWindow[out] as number) - 1;
          if (inWindow[out] === 0) window -= 1;
          lo += 1;
        }
        if (window > bestWindow) {
          bestWindow = window;
          counts.windowProviders[k] = window;
          counts.windowComplaint[k] = category;
          counts.windowStart[k] = batch.claimDate[claims[lo] as number] as number;
        }
      }
      if (total > bestTotal) {
        bestTotal = total;
        counts.complaintProviders[k] = total;
        counts.complaint[k] = category;
      }
      for (let r = u; r < v; r += 1) inRun[batch.providerId[claims[r] as number] as number] = 0;
      for (let r = lo; r < v; r += 1) inWindow[batch.providerId[claims[r] as number] as number] = 0;
      u = v;
    }
    k += 1;
  }
  return counts;
}

export const memberPatternDetector: Detector = {
  name: "member-pattern",
  run(batch, sink) {
    const counts = countMembers(batch);
    if (counts === undefined) return;
    const { start, order } = claimsByMember(batch);
    const categories = diagnosisCategories(batch);
    const members = counts.member.length;
    const fits = {
      complaint: fitOf(counts.complaintProviders, false),
      window: fitOf(counts.windowProviders, false),
      providers: fitOf(counts.providers, true),
      visits: fitOf(counts.visits, true),
    };
    const typical = (fit: RobustFit): string => num(fit.median, 1);
    for (let k = 0; k < members; k += 1) {
      const nComplaint = counts.complaintProviders[k] as number;
      const nWindow = counts.windowProviders[k] as number;
      const nProviders = counts.providers[k] as number;
      const nVisits = counts.visits[k] as number;
      const zComplaint = robustZ(nComplaint, fits.complaint);
      const zWindow = robustZ(nWindow, fits.window);
      const zProviders = robustZ(nProviders, fits.providers);
      const zVisits = robustZ(nVisits, fits.visits);
      const least = MEMBER.minComplaintProviders;
      const sComplaint = nComplaint >= least ? scoreOf(zComplaint, MEMBER.complaintProviders) : 0;
      const sWindow = nWindow >= least ? scoreOf(zWindow, MEMBER.complaintWindow) : 0;
      const sProviders = nProviders >= MEMBER.minProviders ? scoreOf(zProviders, MEMBER.providers) : 0;
      const sVisits = nVisits >= MEMBER.minVisits ? scoreOf(zVisits, MEMBER.visits) : 0;
      const shopping = Math.max(sComplaint, sWindow);
      const general = Math.max(sProviders, sVisits);
      if (shopping <= 0 && general <= 0) continue;
      const m = counts.member[k] as number;
      const target =
        sWindow > sComplaint ? (counts.windowComplaint[k] as number) : (counts.complaint[k] as number);
      const facts: string[] = [];
      if (sComplaint > 0) {
        facts.push(
          `${count(nComplaint)} providers billed this member for complaint ` +
            `${categories.texts[counts.complaint[k] as number]} (batch typical ${typical(fits.complaint)}, ` +
            `robust z ${num(zComplaint, 1)})`,
        );
      }
      if (sWindow > 0) {
        const from = counts.windowStart[k] as number;
        facts.push(
          `${count(nWindow)} providers for complaint ${categories.texts[counts.windowComplaint[k] as number]} ` +
            `within ${MEMBER.windowDays} days from ${isoOfDay(from)} (batch typical ${typical(fits.window)}, ` +
            `robust z ${num(zWindow, 1)})`,
        );
      }
      if (sProviders > 0) {
        facts.push(
          `${count(nProviders)} providers in all (typical ${typical(fits.providers)}, robust z ${num(zProviders, 1)})`,
        );
      }
      if (general > 0) {
        facts.push(
          `${count(nVisits)} claims in the batch (typical ${typical(fits.visits)}, robust z ${num(zVisits, 1)})`,
        );
      }
      const cause = `member ${textOf(batch, m)}: ${facts.join("; ")} over ${count(members)} members`;
      const code =
        shopping > 0 || sProviders >= sVisits ? MEMBER_PATTERN_PROVIDERS_CODE : MEMBER_PATTERN_VISITS_CODE;
      const description =
        code === MEMBER_PATTERN_PROVIDERS_CODE
          ? "Member seen by unusually many providers"
          : "Member with excessive visits";
      const complaintFinding =
        shopping > 0 ? flag(code, description, cause, Math.max(shopping, general)) : undefined;
      const generalFinding = general > 0 ? flag(code, description, cause, general) : undefined;
      const from = start[m] as number;
      const to = start[m + 1] as number;
      for (let r = from; r < to; r += 1) {
        const c = order[r] as number;
        const inComplaint = categories.of[batch.primaryDiagnosis[c] as number] === target;
        const finding = inComplaint && complaintFinding !== undefined ? complaintFinding : generalFinding;
        if (finding !== undefined) sink.claim(c, finding);
      }
      sink.entity("member", m, Math.max(shopping, general));
    }
  },
};
