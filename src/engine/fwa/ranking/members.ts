/**
 * The batch's members ranked for audit (docs/operator-contract.md section 9), as providers are
 * (ranking/providers.ts): a logistic score of terms, each named as a reason when it raised the score: volume,
 * the flags term (ranking/entity.ts), the providers they saw beyond one, and the member-pattern detector's
 * score. Weights: sensitivity.ts (RANKING.member), set by hand since no member labels exist.
 */
import { textOf } from "../columns/columnar.js";
import { RANKING } from "../sensitivity.js";
import { claimsByMember } from "../stats/batch.js";
import { claimAmount, type RiskTerm, reasonsOf, volumeTerm, volumeWeight } from "../stats/exposure.js";
import { count, num } from "../stats/format.js";
import { sigmoid } from "../stats/robust.js";
import type { BatchDecisions, ColumnarBatchView } from "../types.js";
import {
  type EntityRanking,
  entityRanking,
  flagExcess,
  flagsBy,
  flagTermOf,
  NO_FLAGS,
  type RankedEntities,
  round4,
} from "./entity.js";

/**
 * The ranking as figures per member in typed arrays, sorted; a member's row (its reasons' texts) is built
 * only when its page is asked for: a row for every member held at once grew with the batch (some 600 bytes
 * a member).
 */
export function memberRanking(batch: ColumnarBatchView, decisions: BatchDecisions): RankedEntities {
  const { byEntity, batchShare } = flagsBy(batch, decisions, batch.memberId);
  const keys = batch.strings.length;
  const claims = new Int32Array(keys);
  const items = new Int32Array(keys);
  const amount = new Float64Array(keys);
  let memberCount = 0;
  for (let c = 0; c < batch.claimCount; c += 1) {
    const member = batch.memberId[c] as number;
    if (claims[member] === 0) memberCount += 1;
    claims[member] = (claims[member] as number) + 1;
    items[member] =
      (items[member] as number) + (batch.firstItem[c + 1] as number) - (batch.firstItem[c] as number);
    amount[member] = (amount[member] as number) + claimAmount(batch, c);
  }
  const providers = distinctProviders(batch, keys);
  const members = new Int32Array(memberCount);
  for (let key = 0, n = 0; key < keys; key += 1) if ((claims[key] as number) > 0) members[n++] = key;
  const average = batch.claimCount / Math.max(1, memberCount);
  const weights = RANKING.member;
  const providersWeight = (member: number) => weights.providers * Math.log(providers[member] as number);
  const patternOf = (member: number) => decisions.memberScore.get(member) ?? 0;
  const patternWeight = (member: number) => weights.pattern * patternOf(member);
  const termsOf = (member: number): RiskTerm[] => {
    const flags = byEntity.get(member) ?? NO_FLAGS;
    const pattern = patternOf(member);
    const memberClaims = claims[member] as number;
    return [
      volumeTerm(memberClaims, amount[member] as number, average, weights.volume),
      flagTermOf(flags, memberClaims, batchShare, weights.flags).term,
      {
        code: "FWA-RANK-PROVIDERS",
        description: "Several providers in one batch",
        weight: providersWeight(member),
        cause: `${count(providers[member] as number)} providers in the batch`,
      },
      {
        code: "FWA-RANK-PATTERN",
        description: "Member pattern unlike other members'",
        weight: patternWeight(member),
        cause: `member pattern score ${num(pattern, 2)} (its FWA-MEMBER findings give the figures)`,
      },
    ];
  };
  // termsOf's weights summed in its order, without its texts: every member is scored, few rows are read at
  // once, and a million members' texts built only to be dropped grew the heap by some 100 bytes a member
  const logitOf = (member: number): number =>
    weights.base +
    volumeWeight(claims[member] as number, average, weights.volume) +
    weights.flags * flagExcess(byEntity.get(member) ?? NO_FLAGS, claims[member] as number, batchShare) +
    providersWeight(member) +
    patternWeight(member);
  const riskOf = (terms: RiskTerm[]) =>
    sigmoid(terms.reduce<number>((sum, term) => sum + term.weight, weights.base));
  const rowOf = (member: number): EntityRanking => {
    const terms = termsOf(member);
    const figures = {
      claims: claims[member] as number,
      items: items[member] as number,
      amount: amount[member] as number,
    };
    return entityRanking(
      textOf(batch, member),
      figures,
      byEntity.get(member) ?? NO_FLAGS,
      riskOf(terms),
      reasonsOf(terms),
    );
  };
  // byRisk's order (the rounded score, then the amount, then the id) over the figures alone
  const score = new Float64Array(keys);
  for (const member of members) score[member] = round4(sigmoid(logitOf(member)));
  const order = [...members].sort(
    (a, b) =>
      (score[b] as number) - (score[a] as number) ||
      (amount[b] as number) - (amount[a] as number) ||
      (textOf(batch, a) < textOf(batch, b) ? -1 : 1),
  );
  return { count: order.length, rows: (from, to) => order.slice(from, to).map(rowOf) };
}

/** by member: how many distinct providers its claims name */
function distinctProviders(batch: ColumnarBatchView, keys: number): Int32Array {
  const { start, order } = claimsByMember(batch);
  const providers = new Int32Array(keys);
  const lastMember = new Int32Array(keys).fill(-1);
  for (let member = 0; member + 1 < start.length; member += 1)
    for (let k = start[member] as number; k < (start[member + 1] as number); k += 1) {
      const provider = batch.providerId[order[k] as number] as number;
      if (lastMember[provider] === member) continue;
      lastMember[provider] = member;
      providers[member] = (providers[member] as number) + 1;
    }
  return providers;
}
