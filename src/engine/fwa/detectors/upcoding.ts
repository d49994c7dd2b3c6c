/**
 * Upcoding within a service family (docs/architecture.md section 5). Some codes are levels of one service: an
 * office visit is 99211 to 99215 by complexity, an emergency visit 99281 to 99285. A provider that bills the
 * highest levels far more often than its peers do for the same family may be coding up. SERVICE_FAMILIES
 * lists the families as data: add a family by listing its codes from the lowest level to the highest and how
 * many of the top levels count as high.
 *
 * For each family and setting (claim sub-type: inpatient, outpatient, emergency), every provider with at
 * least UPCODING.minItems items of the family has a share of high levels. Those shares, over the providers
 * (at least UPCODING.minProviders of them), give a median and a robust scale (robustFit, floor
 * UPCODING.shareFloor), which a provider's own sampling noise, sqrt(p (1 - p) / n), may widen. A provider
 * whose share is at least UPCODING.minExcess above the median scores by its robust z (UPCODING.curve). A
 * family whose settings each have too few providers is judged over all settings at once. Its high-level items
 * of the family (in that setting) are flagged. Every judged provider's standing (the same curve, without its
 * floor: near 0 for an ordinary provider) goes to `sink.entity("provider", ...)`, so providers rank by it.
 */
import { textOf } from "../columns/columnar.js";
import { flag } from "../findings.js";
import { UPCODING } from "../sensitivity.js";
import { count, num, percent } from "../stats/format.js";
import { robustFitOf, scoreOf } from "../stats/robust.js";
import type { ColumnarBatchView, Detector, Finding } from "../types.js";

export const UPCODING_CODE = "FWA-UPCODE-01";

export interface ServiceFamily {
  /** plural, for causes: "office visits, established patient" */
  name: string;
  /** codes from the lowest level to the highest */
  levels: readonly string[];
  /** how many of the highest levels count as high */
  high: number;
}

/** CPT evaluation and management families */
export const SERVICE_FAMILIES: readonly ServiceFamily[] = Object.freeze([
  { name: "office visits, new patient", levels: ["99201", "99202", "99203", "99204", "99205"], high: 2 },
  {
    name: "office visits, established patient",
    levels: ["99211", "99212", "99213", "99214", "99215"],
    high: 2,
  },
  { name: "office consultations", levels: ["99241", "99242", "99243", "99244", "99245"], high: 2 },
  { name: "emergency department visits", levels: ["99281", "99282", "99283", "99284", "99285"], high: 2 },
  { name: "initial hospital care", levels: ["99221", "99222", "99223"], high: 1 },
  { name: "subsequent hospital care", levels: ["99231", "99232", "99233"], high: 1 },
  { name: "inpatient consultations", levels: ["99251", "99252", "99253", "99254", "99255"], high: 2 },
  { name: "observation care", levels: ["99218", "99219", "99220"], high: 1 },
  { name: "initial nursing facility care", levels: ["99304", "99305", "99306"], high: 1 },
  { name: "subsequent nursing facility care", levels: ["99307", "99308", "99309", "99310"], high: 1 },
  { name: "home visits, new patient", levels: ["99341", "99342", "99343", "99344", "99345"], high: 2 },
  { name: "home visits, established patient", levels: ["99347", "99348", "99349", "99350"], high: 1 },
]);

const SETTINGS = ["inpatient", "outpatient", "emergency"];
/** the upcoding curve without its floor: a continuous standing for every judged provider */
const RANKING = { ...UPCODING.curve, min: Number.NEGATIVE_INFINITY };
/** settings are claim sub-types 0..2; this one pools them */
const ALL = 3;
const SLOTS = 4;

interface Cell {
  provider: number;
  family: number;
  slot: number;
  items: number;
  high: number;
  finding?: Finding;
}

/** by service code id: [family, isHigh] or undefined, from the families' code texts */
function familyLookup(
  batch: ColumnarBatchView,
  families: readonly ServiceFamily[],
): (code: number) => number {
  const byText = new Map<string, number>();
  families.forEach((family, f) => {
    family.levels.forEach((code, level) => {
      const high = level >= family.levels.length - family.high ? 1 : 0;
      byText.set(code, f * 2 + high);
    });
  });
  /** -2 not looked up, -1 no family, else family * 2 + high */
  const known = new Int32Array(batch.strings.length).fill(-2);
  return (code) => {
    let value = known[code] as number;
    if (value === -2) {
      value = byText.get((batch.strings[code] ?? "").trim()) ?? -1;
      known[code] = value;
    }
    return value;
  };
}

/** the upcoding detector over the given families (SERVICE_FAMILIES by default) */
export function upcodingDetectorFor(families: readonly ServiceFamily[] = SERVICE_FAMILIES): Detector {
  return {
    name: "upcoding",
    run(batch, sink) {
      const lookup = familyLookup(batch, families);
      const cells: Cell[] = [];
      const index = new Map<number, number>();
      const cellOf = (provider: number, family: number, slot: number): Cell => {
        const key = (provider * families.length + family) * SLOTS + slot;
        let k = index.get(key);
        if (k === undefined) {
          k = cells.length;
          cells.push({ provider, family, slot, items: 0, high: 0 });
          index.set(key, k);
        }
        return cells[k] as Cell;
      };
      for (let i = 0; i < batch.itemCount; i += 1) {
        const value = lookup(batch.serviceCode[i] as number);
        if (value < 0) continue;
        const c = batch.itemClaim[i] as number;
        const provider = batch.providerId[c] as number;
        const family = value >> 1;
        const high = value & 1;
        const setting = Math.min(batch.claimSubType[c] as number, 2);
        // each item counts in its setting and in all settings pooled (no array per item: batches reach 1M)
        const atSetting = cellOf(provider, family, setting);
        atSetting.items += 1;
        atSetting.high += high;
        const pooled = cellOf(provider, family, ALL);
        pooled.items += 1;
        pooled.high += high;
      }
      if (cells.length === 0) return;

      // which slots each family is judged in: its settings with enough providers, else all settings pooled
      const qualifying = new Int32Array(families.length * SLOTS);
      for (const cell of cells) {
        if (cell.items >= UPCODING.minItems) {
          const k = cell.family * SLOTS + cell.slot;
          qualifying[k] = (qualifying[k] as number) + 1;
        }
      }
      const judged = new Uint8Array(families.length * SLOTS);
      for (let f = 0; f < families.length; f += 1) {
        let any = false;
        for (let s = 0; s < ALL; s += 1) {
          if ((qualifying[f * SLOTS + s] as number) >= UPCODING.minProviders) {
            judged[f * SLOTS + s] = 1;
            any = true;
          }
        }
        if (!any && (qualifying[f * SLOTS + ALL] as number) >= UPCODING.minProviders)
          judged[f * SLOTS + ALL] = 1;
      }

      // the peers, per judged family and slot
      const peers = new Map<number, Cell[]>();
      for (const cell of cells) {
        const k = cell.family * SLOTS + cell.slot;
        if (judged[k] !== 1 || cell.items < UPCODING.minItems) continue;
        const group = peers.get(k);
        if (group === undefined) peers.set(k, [cell]);
        else group.push(cell);
      }
      const providerScore = new Map<number, number>();
      for (const group of peers.values()) {
        const fit = robustFitOf(
          group.map((cell) => cell.high / cell.items),
          UPCODING.shareFloor,
        );
        const p = Math.min(0.98, Math.max(0.02, fit.median));
        for (const cell of group) {
          const share = cell.high / cell.items;
          const scale = Math.max(fit.scale, Math.sqrt((p * (1 - p)) / cell.items));
          const z = (share - fit.median) / scale;
          // every judged provider's standing, for the ranking of providers; findings only past the gates
          const standing = scoreOf(z, RANKING);
          providerScore.set(cell.provider, Math.max(providerScore.get(cell.provider) ?? 0, standing));
          if (share - fit.median < UPCODING.minExcess) continue;
          const score = scoreOf(z, UPCODING.curve);
          if (score <= 0) continue;
          const family = families[cell.family] as ServiceFamily;
          const top = family.levels.slice(family.levels.length - family.high);
          const where = cell.slot === ALL ? "" : ` (${SETTINGS[cell.slot]})`;
          const cause =
            `provider ${textOf(batch, cell.provider)} billed the top level${top.length > 1 ? "s" : ""} ` +
            `(${top.join(", ")}) of ${family.name} in ${percent(share)} of its ${count(cell.items)} such items${where}; ` +
            `the batch's providers: median ${percent(fit.median)} over ${count(group.length)} providers ` +
            `(robust z ${num(z, 1)})`;
          cell.finding = flag(
            UPCODING_CODE,
            "High levels of a service family far more often than peers",
            cause,
            score,
          );
        }
      }
      for (const [provider, score] of providerScore) sink.entity("provider", provider, score);
      if (!cells.some((cell) => cell.finding !== undefined)) return;

      const flagIn = (i: number, provider: number, family: number, slot: number): void => {
        const k = index.get((provider * families.length + family) * SLOTS + slot);
        const finding = k === undefined ? undefined : cells[k]?.finding;
        if (finding !== undefined) sink.item(i, finding);
      };
      for (let i = 0; i < batch.itemCount; i += 1) {
        const value = lookup(batch.serviceCode[i] as number);
        if (value < 0 || (value & 1) === 0) continue;
        const c = batch.itemClaim[i] as number;
        const provider = batch.providerId[c] as number;
        const family = value >> 1;
        flagIn(i, provider, family, Math.min(batch.claimSubType[c] as number, 2));
        flagIn(i, provider, family, ALL);
      }
    },
  };
}

export const upcodingDetector: Detector = upcodingDetectorFor();
