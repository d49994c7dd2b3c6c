/**
 * Rich per-provider features of a batch: what a provider's claims, patients, stays, diagnoses and
 * amounts look like against the batch, against peers treating the same diagnoses, through the batch's period
 * (a month shows little of it, a year a lot), and through the patients it shares with other providers.
 * Every feature is computed within the batch alone, from the columns; one row per provider, in the order of
 * first appearance. Pure and deterministic. What the yearly audit ranks (ranking/audit.ts) and what a
 * tenant's boosted model weighs (model/boosting.ts).
 */
import { CLAIM_SUB_TYPE } from "../columns/columnar.js";
import { civilFromDays } from "../columns/days.js";
import { type ColumnarBatchView, NO_DATE } from "../types.js";
import { claimsByMember, claimsByProvider, diagnosisCategories } from "./batch.js";
import { claimAmount } from "./exposure.js";

/** each rich feature, in the order of a row, with what it measures (for the reasons of a learned model) */
export const RICH_FEATURE_TEXT = {
  // volume
  log_claims: "ln(1 + claims)",
  log_members: "ln(1 + distinct members)",
  log_amount: "ln(1 + amount in SAR)",
  volume_share: "ln(claims / the batch's claims per provider)",
  claims_per_member: "claims / distinct members",
  repeat_members: "share of its members with two claims or more at it",
  // amounts and stays
  mean_log_amount: "mean ln(1 + claim amount)",
  mean_log_stay: "mean ln(1 + stay days)",
  mean_log_cost_day: "mean ln(1 + amount / max(1, days))",
  long_stay_share: "share of its stays longer than 2x the batch median of its primary diagnosis' peers",
  longest_stay: "its longest stay (days)",
  dx_stay_excess: "mean (ln(1+stay) - the diagnosis peers' median), shrunk toward 0 by 5 pseudo-claims",
  dx_amount_excess: "the same for ln(1 + amount)",
  dx_cost_day_excess: "the same for ln(1 + cost per day)",
  amount_round_share: "share of claims whose amount is a multiple of 1,000",
  // diagnoses and procedures
  diagnoses_per_claim: "1 + secondary diagnoses",
  items_per_claim: "items per claim",
  distinct_dx_share: "distinct primary diagnoses / claims",
  top_dx_share: "share of its claims with its commonest primary diagnosis category (3 characters)",
  repeated_dx_set_share:
    "share of its claims whose whole diagnosis set repeats on another claim of the batch",
  rare_dx_share: "share of claims whose primary diagnosis appears at most twice in the batch",
  // patients
  member_age: "mean age at admission (years)",
  shared_member_share: "share of its members who also claimed at another provider in the batch",
  overlap_share: "share of its claims whose stay overlaps another claim of the member (any provider)",
  readmit_30_share:
    "share of its claims admitted within 30 days of the member's previous discharge (any provider)",
  log_neighbours: "ln(1 + providers sharing a member with it)",
  neighbour_volume: "mean ln(1 + claims) of those providers, weighed by shared members (0 without)",
  // through the period
  active_months_share: "months with a claim / months of the batch's period",
  monthly_cv: "coefficient of variation of its claims per month over the batch's months",
  peak_month_share: "its busiest month's share of its claims",
  trend: "slope of its monthly claims share over the period (per month, against its mean)",
  claims_per_active_day: "claims / distinct admission days",
  same_day_max: "most claims it admitted on one day",
  claim_lag: "mean days from discharge to claim date (negative: claimed before discharge)",
};
export type RichFeature = keyof typeof RICH_FEATURE_TEXT;
/** the rich features in the order of a row (RICH_FEATURE_TEXT's keys, so the list and the texts never part) */
export const RICH_FEATURES = Object.keys(RICH_FEATURE_TEXT) as readonly RichFeature[];

export interface ProviderFeatureTable {
  /** interned provider ids, one per row */
  providers: number[];
  names: readonly RichFeature[];
  /** rows.length = providers.length; each of RICH_FEATURES.length values */
  rows: number[][];
}

const IN_PATIENT = CLAIM_SUB_TYPE.IN_PATIENT;
const SHRINK = 5;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** the month index (year * 12 + month - 1) of a day since 1970-01-01 */
function monthOf(day: number): number {
  const [year, month] = civilFromDays(day);
  return year * 12 + month - 1;
}

/**
 * the months a batch spans: from the month of its earliest claim date to its latest's, the earliest and
 * latest 1 % of claims left out (one mis-dated claim does not make a month's batch a year's)
 */
export function periodMonths(batch: ColumnarBatchView): number {
  const days: number[] = [];
  for (let c = 0; c < batch.claimCount; c += 1)
    if (batch.claimDate[c] !== NO_DATE) days.push(batch.claimDate[c] as number);
  if (days.length === 0) return 0;
  days.sort((x, y) => x - y);
  const trim = Math.floor(days.length / 100);
  return monthOf(days[days.length - 1 - trim] as number) - monthOf(days[trim] as number) + 1;
}

/** the feature table of every provider of the batch */
export function providerFeatureTable(batch: ColumnarBatchView): ProviderFeatureTable {
  const n = batch.claimCount;
  // per claim figures
  const amount = new Float64Array(n);
  const stay = new Float64Array(n).fill(Number.NaN); // days
  const start = new Int32Array(n); // admission (or claim) day
  const end = new Int32Array(n);
  for (let c = 0; c < n; c += 1) {
    amount[c] = claimAmount(batch, c) / 100;
    const a = batch.admissionDate[c] as number;
    const d = batch.dischargeDate[c] as number;
    const claimDay = batch.claimDate[c] as number;
    start[c] = a !== NO_DATE ? a : claimDay;
    end[c] = d !== NO_DATE && d >= (start[c] as number) ? d : (start[c] as number);
    if (batch.claimSubType[c] === IN_PATIENT && a !== NO_DATE && d !== NO_DATE && d >= a) stay[c] = d - a;
  }
  // the batch's period, in months
  let firstMonth = Number.POSITIVE_INFINITY;
  let lastMonth = Number.NEGATIVE_INFINITY;
  const month = new Int32Array(n);
  for (let c = 0; c < n; c += 1) {
    const m = monthOf(start[c] as number);
    month[c] = m;
    if (m < firstMonth) firstMonth = m;
    if (m > lastMonth) lastMonth = m;
  }
  const months = n === 0 ? 1 : lastMonth - firstMonth + 1;

  // diagnosis peers: by primary diagnosis, the medians of ln(1+stay), ln(1+amount), ln(1+cost per day);
  // a diagnosis with fewer than 5 claims falls back to its 3-character category, then to the batch
  const logStay = (c: number) => Math.log1p(stay[c] as number);
  const logAmount = (c: number) => Math.log1p(amount[c] as number);
  const logCost = (c: number) => Math.log1p((amount[c] as number) / Math.max(1, stay[c] as number));
  const byDx = new Map<number, number[]>();
  const byCategory = new Map<number, number[]>();
  const categoryIds = diagnosisCategories(batch).of;
  const categoryOf = (c: number) => categoryIds[batch.primaryDiagnosis[c] as number] as number;
  for (let c = 0; c < n; c += 1) {
    if (Number.isNaN(stay[c] as number)) continue;
    const dx = batch.primaryDiagnosis[c] as number;
    (byDx.get(dx) ?? byDx.set(dx, []).get(dx))?.push(c);
    const cat = categoryOf(c);
    (byCategory.get(cat) ?? byCategory.set(cat, []).get(cat))?.push(c);
  }
  const allStays: number[] = [];
  for (let c = 0; c < n; c += 1) if (!Number.isNaN(stay[c] as number)) allStays.push(c);
  const peerMedians = new Map<number[], [number, number, number, number]>();
  const mediansOf = (group: number[]) => {
    let m = peerMedians.get(group);
    if (m === undefined) {
      m = [
        median(group.map(logStay)),
        median(group.map(logAmount)),
        median(group.map(logCost)),
        median(group.map((c) => stay[c] as number)),
      ];
      peerMedians.set(group, m);
    }
    return m;
  };
  const peersOf = (c: number): [number, number, number, number] => {
    const dx = byDx.get(batch.primaryDiagnosis[c] as number);
    if (dx !== undefined && dx.length >= 5) return mediansOf(dx);
    const cat = byCategory.get(categoryOf(c));
    if (cat !== undefined && cat.length >= 5) return mediansOf(cat);
    return mediansOf(allStays);
  };

  // diagnosis counts and diagnosis sets
  const dxCount = new Int32Array(batch.strings.length);
  for (let c = 0; c < n; c += 1) {
    const dx = batch.primaryDiagnosis[c] as number;
    dxCount[dx] = (dxCount[dx] as number) + 1;
  }
  // by claim, its set of three or more diagnoses as a number (-1 for fewer): a text per claim held millions
  const setOf = new Int32Array(n).fill(-1);
  const setIds = new Map<string, number>();
  const setCount: number[] = [];
  for (let c = 0; c < n; c += 1) {
    const codes = [batch.primaryDiagnosis[c] as number];
    for (let s = batch.firstSecondary[c] as number; s < (batch.firstSecondary[c + 1] as number); s += 1)
      codes.push(batch.secondaryDiagnoses[s] as number);
    if (codes.length < 3) continue;
    const key = codes.sort((a, b) => a - b).join(",");
    let id = setIds.get(key);
    if (id === undefined) {
      id = setCount.push(0) - 1;
      setIds.set(key, id);
    }
    setOf[c] = id;
    setCount[id] = (setCount[id] as number) + 1;
  }

  // members (the batch's grouping, ids in order of first appearance): their claims in admission order;
  // overlaps and readmissions; how many providers they saw, and the providers that share members (each
  // pair weighed by its shared members), counted member by member rather than each member's set kept
  const byMember = claimsByMember(batch);
  const overlaps = new Uint8Array(n);
  const readmit = new Uint8Array(n);
  const providerCount = new Int32Array(byMember.start.length);
  const neighbours = new Map<number, Map<number, number>>();
  for (let m = 0; m + 1 < byMember.start.length; m += 1) {
    const from = byMember.start[m] as number;
    const to = byMember.start[m + 1] as number;
    if (from === to) continue;
    // a member's only claim overlaps nothing and follows nothing: no copy, sort or set for it
    if (to - from === 1) {
      providerCount[m] = 1;
      continue;
    }
    const claims = Array.from(byMember.order.subarray(from, to)).sort(
      (a, b) => (start[a] as number) - (start[b] as number) || a - b,
    );
    const providers = new Set<number>();
    for (let k = 0; k < claims.length; k += 1) {
      const c = claims[k] as number;
      providers.add(batch.providerId[c] as number);
      if (k > 0) {
        const p = claims[k - 1] as number;
        const gap = (start[c] as number) - (end[p] as number);
        if (gap >= 0 && gap <= 30) readmit[c] = 1;
      }
      for (let j = k + 1; j < claims.length; j += 1) {
        const o = claims[j] as number;
        if ((start[o] as number) >= (end[c] as number)) break;
        overlaps[c] = 1;
        overlaps[o] = 1;
      }
    }
    providerCount[m] = providers.size;
    if (providers.size < 2) continue;
    for (const a of providers) {
      const map = neighbours.get(a) ?? neighbours.set(a, new Map()).get(a);
      for (const b of providers) if (a !== b) map?.set(b, (map.get(b) ?? 0) + 1);
    }
  }

  // providers (the batch's grouping, ids in order of first appearance)
  const byProvider = claimsByProvider(batch);
  const claimsAt = (p: number) =>
    byProvider.order.subarray(byProvider.start[p] as number, byProvider.start[p + 1] as number);
  const claimCountAt = (p: number) => (byProvider.start[p + 1] as number) - (byProvider.start[p] as number);
  const providerIds: number[] = [];
  for (let p = 0; p + 1 < byProvider.start.length; p += 1)
    if ((byProvider.start[p + 1] as number) > (byProvider.start[p] as number)) providerIds.push(p);
  const averageClaims = n / Math.max(1, providerIds.length);

  // counters by member, diagnosis, category and month, reused from provider to provider (a Map of each
  // per provider cost more than every feature's arithmetic); each provider's touched entries are reset
  const claimsOfMember = new Int32Array(batch.strings.length);
  const dxSeenBy = new Int32Array(batch.strings.length).fill(-1);
  const claimsInCategory = new Int32Array(diagnosisCategories(batch).texts.length);
  const perMonth = new Int32Array(months);
  const touched = new Int32Array(byProvider.order.length);
  const days = new Int32Array(byProvider.order.length);
  const providers: number[] = [];
  const rows: number[][] = [];
  for (const provider of providerIds) {
    const claims = claimsAt(provider);
    const k = claims.length;
    let memberCount = 0;
    let dxCountHere = 0;
    let amountSum = 0;
    let logAmountSum = 0;
    let stays = 0;
    let logStaySum = 0;
    let logCostSum = 0;
    let longStays = 0;
    let longestStay = 0;
    let dxStay = 0;
    let dxAmount = 0;
    let dxCost = 0;
    let rounded = 0;
    let diagnoses = 0;
    let items = 0;
    let repeatedSets = 0;
    let rare = 0;
    let ageSum = 0;
    let ageN = 0;
    let overlapN = 0;
    let readmitN = 0;
    let lagSum = 0;
    let lagN = 0;
    let activeMonths = 0;
    let topCategory = 0;
    for (let i = 0; i < k; i += 1) {
      const c = claims[i] as number;
      const m = batch.memberId[c] as number;
      if (claimsOfMember[m] === 0) touched[memberCount++] = m;
      claimsOfMember[m] = (claimsOfMember[m] as number) + 1;
      const a = amount[c] as number;
      amountSum += a;
      logAmountSum += Math.log1p(a);
      if (a > 0 && a % 1000 === 0) rounded += 1;
      if (!Number.isNaN(stay[c] as number)) {
        stays += 1;
        logStaySum += logStay(c);
        logCostSum += logCost(c);
        const [mStay, mAmount, mCost, mDays] = peersOf(c);
        dxStay += logStay(c) - mStay;
        dxAmount += logAmount(c) - mAmount;
        dxCost += logCost(c) - mCost;
        if ((stay[c] as number) > 2 * Math.max(1, mDays)) longStays += 1;
        if ((stay[c] as number) > longestStay) longestStay = stay[c] as number;
      }
      diagnoses += 1 + (batch.firstSecondary[c + 1] as number) - (batch.firstSecondary[c] as number);
      items += (batch.firstItem[c + 1] as number) - (batch.firstItem[c] as number);
      if ((setCount[setOf[c] as number] ?? 0) >= 2) repeatedSets += 1;
      const dx = batch.primaryDiagnosis[c] as number;
      if (dxSeenBy[dx] !== provider) {
        dxSeenBy[dx] = provider;
        dxCountHere += 1;
      }
      if ((dxCount[dx] as number) <= 2) rare += 1;
      const cat = categoryOf(c);
      const inCategory = (claimsInCategory[cat] as number) + 1;
      claimsInCategory[cat] = inCategory;
      if (inCategory > topCategory) topCategory = inCategory;
      const dob = batch.memberDob[c] as number;
      if (dob !== NO_DATE) {
        ageSum += ((start[c] as number) - dob) / 365.25;
        ageN += 1;
      }
      overlapN += overlaps[c] as number;
      readmitN += readmit[c] as number;
      const claimDay = batch.claimDate[c] as number;
      if (claimDay !== NO_DATE && (batch.dischargeDate[c] as number) !== NO_DATE) {
        lagSum += claimDay - (batch.dischargeDate[c] as number);
        lagN += 1;
      }
      const mo = (month[c] as number) - firstMonth;
      if (perMonth[mo] === 0) activeMonths += 1;
      perMonth[mo] = (perMonth[mo] as number) + 1;
      days[i] = start[c] as number;
    }
    let repeatMembers = 0;
    let sharedMembers = 0;
    for (let t = 0; t < memberCount; t += 1) {
      const m = touched[t] as number;
      if ((claimsOfMember[m] as number) >= 2) repeatMembers += 1;
      if ((providerCount[m] as number) >= 2) sharedMembers += 1;
      claimsOfMember[m] = 0;
    }
    const mine = neighbours.get(provider);
    let neighbourWeight = 0;
    let neighbourVolume = 0;
    for (const [other, shared] of mine ?? []) {
      neighbourWeight += shared;
      neighbourVolume += shared * Math.log1p(claimCountAt(other));
    }
    // monthly activity over the batch's months
    const mean = k / months;
    let variance = 0;
    let peak = 0;
    let sxy = 0;
    let sxx = 0;
    const centre = (months - 1) / 2;
    for (let mo = 0; mo < months; mo += 1) {
      const v = perMonth[mo] as number;
      variance += (v - mean) ** 2;
      if (v > peak) peak = v;
      sxy += (mo - centre) * (v - mean);
      sxx += (mo - centre) ** 2;
      perMonth[mo] = 0;
    }
    for (const c of claims) claimsInCategory[categoryOf(c)] = 0;
    // distinct admission days and the busiest one: the provider's days in order, counted by run
    const ordered = days.subarray(0, k).sort();
    let activeDays = 0;
    let sameDayMax = 0;
    for (let i = 0; i < k; ) {
      let j = i + 1;
      while (j < k && ordered[j] === ordered[i]) j += 1;
      activeDays += 1;
      if (j - i > sameDayMax) sameDayMax = j - i;
      i = j;
    }
    const shrunk = (sum: number) => sum / (stays + SHRINK);
    providers.push(provider);
    rows.push([
      Math.log1p(k),
      Math.log1p(memberCount),
      Math.log1p(amountSum),
      Math.log(k / averageClaims),
      k / memberCount,
      repeatMembers / memberCount,
      logAmountSum / k,
      stays > 0 ? logStaySum / stays : 0,
      stays > 0 ? logCostSum / stays : 0,
      stays > 0 ? longStays / stays : 0,
      longestStay,
      shrunk(dxStay),
      shrunk(dxAmount),
      shrunk(dxCost),
      rounded / k,
      diagnoses / k,
      items / k,
      dxCountHere / k,
      topCategory / k,
      repeatedSets / k,
      rare / k,
      ageN > 0 ? ageSum / ageN : 0,
      sharedMembers / memberCount,
      overlapN / k,
      readmitN / k,
      Math.log1p(mine?.size ?? 0),
      neighbourWeight > 0 ? neighbourVolume / neighbourWeight : 0,
      activeMonths / months,
      mean > 0 ? Math.sqrt(variance / months) / mean : 0,
      peak / k,
      sxx > 0 && mean > 0 ? sxy / sxx / mean : 0,
      k / activeDays,
      sameDayMax,
      lagN > 0 ? lagSum / lagN : 0,
    ]);
  }
  return { providers, names: RICH_FEATURES, rows };
}
