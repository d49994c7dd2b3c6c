/**
 * The batch's members ranked for audit (docs/operator-contract.md section 9), as providers are
 * (ranking/providers.ts): a logistic score of terms, each named as a reason when it raised the score: volume,
 * the flags term (ranking/entity.ts), the providers they saw beyond one, and the member-pattern detector's
 * score. Weights: sensitivity.ts (RANKING.member), set by hand since no member labels exist.
 */
import { textOf } from "../columns/columnar.js";
import { RANKING } from "../sensitivity.js";
import { claimAmount, type RiskTerm, reasonsOf, volumeTerm } from "../stats/exposure.js";
import { count, num } from "../stats/format.js";
import { sigmoid } from "../stats/robust.js";
import type { BatchDecisions, ColumnarBatchView } from "../types.js";
import { byRisk, type EntityRanking, entityRanking, flagsBy, flagTermOf, NO_FLAGS } from "./entity.js";

export function rankMembers(batch: ColumnarBatchView, decisions: BatchDecisions): EntityRanking[] {
  const { byEntity, batchShare } = flagsBy(batch, decisions, batch.memberId);
  const members = new Map<
    number,
    { claims: number; items: number; amount: number; providers: Set<number> }
  >();
  for (let c = 0; c < batch.claimCount; c += 1) {
    const member = batch.memberId[c] as number;
    const m = members.get(member) ?? { claims: 0, items: 0, amount: 0, providers: new Set<number>() };
    m.claims += 1;
    m.items += (batch.firstItem[c + 1] as number) - (batch.firstItem[c] as number);
    m.amount += claimAmount(batch, c);
    m.providers.add(batch.providerId[c] as number);
    members.set(member, m);
  }
  const average = batch.claimCount / Math.max(1, members.size);
  const weights = RANKING.member;
  const rows: EntityRanking[] = [];
  for (const [member, m] of members) {
    const flags = byEntity.get(member) ?? NO_FLAGS;
    const pattern = decisions.memberScore.get(member) ?? 0;
    const terms: RiskTerm[] = [
      volumeTerm(m.claims, m.amount, average, weights.volume),
      flagTermOf(flags, m.claims, batchShare, weights.flags).term,
      {
        code: "FWA-RANK-PROVIDERS",
        description: "Several providers in one batch",
        weight: weights.providers * Math.log(m.providers.size),
        cause: `${count(m.providers.size)} providers in the batch`,
      },
      {
        code: "FWA-RANK-PATTERN",
        description: "Member pattern unlike other members'",
        weight: weights.pattern * pattern,
        cause: `member pattern score ${num(pattern, 2)} (its FWA-MEMBER findings give the figures)`,
      },
    ];
    const logit = terms.reduce<number>((sum, term) => sum + term.weight, weights.base);
    rows.push(entityRanking(textOf(batch, member), m, flags, sigmoid(logit), reasonsOf(terms)));
  }
  return rows.sort(byRisk);
}
