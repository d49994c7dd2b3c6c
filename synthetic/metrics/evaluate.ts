/** Holds an analysis' decisions against the ground truth of the injected patterns (figures.ts says how). */
import { rocAuc } from "../../src/engine/fwa/model/quality.js";
import { type BatchDecisions, type ColumnarBatchView, statusOf } from "../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
import { FWA_PATTERNS, type FwaPattern, PATTERN_ENTITY, PATTERN_KIND, type TruthRecord } from "../types.js";
import {
  ENTITY_THRESHOLD,
  type FwaFigures,
  type PatternFigures,
  precision,
  ratio,
  TARGETS,
} from "./figures.js";

/**
 * Holds the decisions against the truth. `claims` are the batch's claims in the order the view was built
 * (claim c is view claim c).
 */
export function evaluate(
  claims: readonly BatchClaimInput[],
  truth: readonly TruthRecord[],
  view: ColumnarBatchView,
  decisions: BatchDecisions,
): FwaFigures {
  if (claims.length !== view.claimCount) throw new Error("claims and view differ");
  const claimIndex = new Map<string, number>();
  for (const [c, claim] of claims.entries()) claimIndex.set(claim.claim_id, c);
  const indexOf = (id: string): number => {
    const c = claimIndex.get(id);
    if (c === undefined) throw new Error(`truth names claim ${id}, not in the batch`);
    return c;
  };

  // the truth, by item, claim and entity
  const itemLabels = new Map<number, Set<FwaPattern>>();
  const touched = new Uint8Array(view.claimCount);
  const claimsOf = new Map<FwaPattern, Set<number>>(FWA_PATTERNS.map((p) => [p, new Set()]));
  const providers = new Map<string, Set<FwaPattern>>();
  const members = new Map<string, Set<FwaPattern>>();
  const addTo = <K>(map: Map<K, Set<FwaPattern>>, key: K, pattern: FwaPattern) => {
    const set = map.get(key) ?? new Set<FwaPattern>();
    set.add(pattern);
    map.set(key, set);
  };
  for (const r of truth) {
    if (r.level === "item") {
      const c = indexOf(r.claim_id);
      const first = view.firstItem[c] as number;
      if (r.item_index < 0 || first + r.item_index >= (view.firstItem[c + 1] as number))
        throw new Error(`truth names item ${r.item_index} of ${r.claim_id}, not in the claim`);
      addTo(itemLabels, first + r.item_index, r.pattern);
      touched[c] = 1;
    } else if (r.level === "claim") {
      const c = indexOf(r.claim_id);
      touched[c] = 1;
      claimsOf.get(r.pattern)?.add(c);
    } else if (r.level === "provider") addTo(providers, r.provider_id, r.pattern);
    else addTo(members, r.member_id, r.pattern);
  }
  const text = (id: number): string => view.strings[id] ?? "";
  const clean = new Uint8Array(view.claimCount);
  let cleanClaims = 0;
  for (let c = 0; c < view.claimCount; c += 1)
    if (
      touched[c] === 0 &&
      !providers.has(text(view.providerId[c] as number)) &&
      !members.has(text(view.memberId[c] as number))
    ) {
      clean[c] = 1;
      cleanClaims += 1;
    }

  const predicted = (item: number): boolean => statusOf(decisions.itemStatus[item]) !== "approved";
  const score = (item: number): number => decisions.itemScore[item] as number;

  // finding codes: the patterns of the labelled items carrying each (on predicted-positive items)
  const codeHits = new Map<
    string,
    { items: number; labelled: number; clean: number; by: Map<FwaPattern, number> }
  >();
  const codesOf = (item: number): Set<string> =>
    new Set((decisions.itemFindings.get(item) ?? []).map((f) => f.code));
  for (let c = 0; c < view.claimCount; c += 1)
    for (let item = view.firstItem[c] as number; item < (view.firstItem[c + 1] as number); item += 1) {
      if (!predicted(item)) continue;
      const labels = itemLabels.get(item);
      for (const code of codesOf(item)) {
        const hit = codeHits.get(code) ?? { items: 0, labelled: 0, clean: 0, by: new Map() };
        hit.items += 1;
        if (clean[c] === 1) hit.clean += 1;
        if (labels !== undefined) {
          hit.labelled += 1;
          for (const p of labels) hit.by.set(p, (hit.by.get(p) ?? 0) + 1);
        }
        codeHits.set(code, hit);
      }
    }

  // items: per pattern and overall
  const labelledOf = new Map<FwaPattern, number>();
  const detectedOf = new Map<FwaPattern, number>();
  const falseOf = new Map<FwaPattern, number>();
  const falseCleanOf = new Map<FwaPattern, number>();
  let unattributed = 0;
  const bump = (map: Map<FwaPattern, number>, p: FwaPattern) => map.set(p, (map.get(p) ?? 0) + 1);
  let predictedItems = 0;
  let detectedItems = 0;
  let cleanItems = 0;
  let cleanItemsPredicted = 0;
  const cleanClaimFlagged = new Uint8Array(view.claimCount);
  const positiveScores: number[] = [];
  const cleanScores: number[] = [];
  for (let c = 0; c < view.claimCount; c += 1) {
    for (let item = view.firstItem[c] as number; item < (view.firstItem[c + 1] as number); item += 1) {
      const labels = itemLabels.get(item);
      const yes = predicted(item);
      if (yes) predictedItems += 1;
      if (labels !== undefined) {
        positiveScores.push(score(item));
        if (yes) detectedItems += 1;
        for (const p of labels) {
          bump(labelledOf, p);
          if (yes) bump(detectedOf, p);
        }
      } else if (clean[c] === 1) {
        cleanItems += 1;
        cleanScores.push(score(item));
        if (yes) {
          cleanItemsPredicted += 1;
          cleanClaimFlagged[c] = 1;
        }
      }
      if (!yes || labels !== undefined) continue;
      // a false positive: apportioned over its codes, and each code's part over the code's patterns
      const codes = codesOf(item);
      for (const code of codes) {
        const hit = codeHits.get(code);
        if (hit === undefined || hit.labelled === 0) {
          unattributed += 1 / codes.size;
          continue;
        }
        let total = 0;
        for (const n of hit.by.values()) total += n;
        for (const [p, n] of hit.by) {
          const part = n / total / codes.size;
          falseOf.set(p, (falseOf.get(p) ?? 0) + part);
          if (clean[c] === 1) falseCleanOf.set(p, (falseCleanOf.get(p) ?? 0) + part);
        }
      }
    }
  }
  const cleanClaimsFlagged = cleanClaimFlagged.reduce((a, b) => a + b, 0);

  // entities: score per interned id, from the detectors or the mean of the items
  const entityFigures = (
    ids: Int32Array,
    reported: ReadonlyMap<number, number>,
    labelled: ReadonlyMap<string, Set<FwaPattern>>,
  ) => {
    const sum = new Map<number, number>();
    const count = new Map<number, number>();
    for (let c = 0; c < view.claimCount; c += 1) {
      const id = ids[c] as number;
      for (let item = view.firstItem[c] as number; item < (view.firstItem[c + 1] as number); item += 1) {
        sum.set(id, (sum.get(id) ?? 0) + score(item));
        count.set(id, (count.get(id) ?? 0) + 1);
      }
    }
    const pos: number[] = [];
    const neg: number[] = [];
    const posMean: number[] = [];
    const negMean: number[] = [];
    let fromEntityScore = 0;
    let unlabelledFlagged = 0;
    const detected = new Map<FwaPattern, number>();
    for (const [id, total] of sum) {
      const mean = total / (count.get(id) as number);
      const own = reported.get(id);
      if (own !== undefined) fromEntityScore += 1;
      const value = own ?? mean;
      const patterns = labelled.get(text(id));
      (patterns === undefined ? neg : pos).push(value);
      (patterns === undefined ? negMean : posMean).push(mean);
      const hit = own !== undefined && own >= ENTITY_THRESHOLD;
      if (patterns === undefined && hit) unlabelledFlagged += 1;
      if (patterns !== undefined && hit)
        for (const p of patterns) detected.set(p, (detected.get(p) ?? 0) + 1);
    }
    return {
      auc: { auc: rocAuc(pos, neg), positives: pos.length, negatives: neg.length },
      meanAuc: { auc: rocAuc(posMean, negMean), positives: posMean.length, negatives: negMean.length },
      fromEntityScore,
      fromItemMean: sum.size - fromEntityScore,
      unlabelledFlagged,
      detected,
    };
  };
  const providerFigures = entityFigures(view.providerId, decisions.providerScore, providers);
  const memberFigures = entityFigures(view.memberId, decisions.memberScore, members);
  const entityCount = (map: ReadonlyMap<string, Set<FwaPattern>>, p: FwaPattern) =>
    [...map.values()].filter((set) => set.has(p)).length;

  const patterns: PatternFigures[] = [];
  for (const pattern of FWA_PATTERNS) {
    const items = labelledOf.get(pattern) ?? 0;
    const claimsTouched = claimsOf.get(pattern)?.size ?? 0;
    if (items === 0 && claimsTouched === 0) continue;
    const kind = PATTERN_KIND[pattern];
    const detected = detectedOf.get(pattern) ?? 0;
    const target = kind === "rule" ? TARGETS.ruleRecall : TARGETS.statisticalRecall;
    const figures: PatternFigures = {
      ...{ pattern, kind, claims: claimsTouched, items, detected, recall: ratio(detected, items) },
      falsePositives: falseOf.get(pattern) ?? 0,
      falsePositivesClean: falseCleanOf.get(pattern) ?? 0,
      precision: precision(detected, falseOf.get(pattern) ?? 0),
      precisionVsClean: precision(detected, falseCleanOf.get(pattern) ?? 0),
      codes: [...codeHits]
        .filter(([, hit]) => (hit.by.get(pattern) ?? 0) > 0)
        .sort(([, a], [, b]) => (b.by.get(pattern) ?? 0) - (a.by.get(pattern) ?? 0))
        .map(([code]) => code),
      target,
      met: ratio(detected, items) >= target,
    };
    const level = PATTERN_ENTITY[pattern];
    if (level !== undefined) {
      const [map, fig] = level === "provider" ? [providers, providerFigures] : [members, memberFigures];
      const labelled = entityCount(map, pattern);
      const found = fig.detected.get(pattern) ?? 0;
      figures.entity = { level, labelled, detected: found, recall: ratio(found, labelled) };
    }
    patterns.push(figures);
  }

  const cleanClaimFpRate = ratio(cleanClaimsFlagged, cleanClaims);
  const providerAuc = {
    ...providerFigures.auc,
    fromEntityScore: providerFigures.fromEntityScore,
    fromItemMean: providerFigures.fromItemMean,
  };
  const checks = [
    ...patterns.map((p) => p.met),
    cleanClaimFpRate <= TARGETS.cleanClaimFpRate,
    providerAuc.auc >= TARGETS.providerAuc,
  ];
  return {
    claims: view.claimCount,
    items: view.itemCount,
    touchedClaims: touched.reduce((a, b) => a + b, 0),
    cleanClaims,
    labelledItems: itemLabels.size,
    cleanItems,
    patterns,
    overall: {
      predicted: predictedItems,
      detected: detectedItems,
      precision: ratio(detectedItems, predictedItems),
      precisionAgainstClean: precision(detectedItems, cleanItemsPredicted),
      recall: ratio(detectedItems, itemLabels.size),
      macroRecall: patterns.reduce((a, p) => a + p.recall, 0) / patterns.length,
    },
    cleanClaimsFlagged,
    cleanClaimFpRate,
    cleanItemFpRate: ratio(cleanItemsPredicted, cleanItems),
    itemAuc: {
      auc: rocAuc(positiveScores, cleanScores),
      positives: positiveScores.length,
      negatives: cleanScores.length,
    },
    providerAuc,
    providerAucItemMean: providerFigures.meanAuc,
    memberAuc: {
      ...memberFigures.auc,
      fromEntityScore: memberFigures.fromEntityScore,
      fromItemMean: memberFigures.fromItemMean,
    },
    unlabelledProvidersFlagged: providerFigures.unlabelledFlagged,
    unlabelledMembersFlagged: memberFigures.unlabelledFlagged,
    codes: [...codeHits]
      .map(([code, hit]) => ({
        ...{ code, items: hit.items, labelled: hit.labelled, clean: hit.clean },
        patterns: Object.fromEntries(
          [...hit.by]
            .sort(([, a], [, b]) => b - a)
            .map(([p, n]) => [p, Math.round((1000 * n) / hit.labelled) / 1000]),
        ),
      }))
      .sort((a, b) => b.items - a.items || (a.code < b.code ? -1 : 1)),
    unattributedFalsePositives: unattributed,
    targets: { met: checks.filter(Boolean).length, of: checks.length },
  };
}
