import { decimalOf } from "../../engine/money.js";
import { decide } from "../../engine/prior-auth/decide.js";
import type { EngineDecision, ItemDecision } from "../../engine/prior-auth/types.js";
import type { Queryable } from "../../platform/db/db.js";
import type { PolicyRow } from "../policies/repo.js";
import { engineRequestOf, loadCoverage, loadEngineContext } from "./context.js";
import type { StoredDecision } from "./repo.js";
import type { CreateInput } from "./schemas.js";

/** who and what a run of the engine is about, as create and the re-runs (reopen, communication) know it */
export interface Subject {
  mode: "standard" | "lightweight";
  member: { pk: number; memberId: string; gender: "MALE" | "FEMALE"; dateOfBirth: Date };
  /** standard mode: the policy of the request (lightweight: undefined, no coverage checks) */
  policy: PolicyRow | undefined;
  providerId: number | undefined;
  /** a re-run leaves the request's own earlier decisions out of utilization and history */
  priorAuthId: number | null;
}

/**
 * Runs the engine on a request: loads its context (inside the caller's transaction, after the member's
 * row is locked, so a member's concurrent requests see each other's utilization) and decides.
 */
export async function adjudicate(
  tx: Queryable,
  tenantId: number,
  subject: Subject,
  input: CreateInput,
  diagnosisCodes: readonly string[],
  now: Date,
): Promise<EngineDecision> {
  const request = engineRequestOf(input, diagnosisCodes);
  const coverage =
    subject.mode === "standard" && subject.policy !== undefined
      ? await loadCoverage(
          tx,
          tenantId,
          {
            memberPk: subject.member.pk,
            policy: subject.policy,
            providerCchiNo: input.medical_provider_cchi_no,
          },
          subject.priorAuthId,
        )
      : undefined;
  const context = await loadEngineContext(
    tx,
    tenantId,
    {
      mode: subject.mode,
      member: subject.member,
      coverage,
      providerId: subject.providerId,
      exceptPriorAuthId: subject.priorAuthId,
    },
    request,
  );
  return decide(request, context, now);
}

/** an engine decision as the items table stores it */
export function storedDecisionOf(decision: ItemDecision): StoredDecision & {
  item_index: number;
  benefit_code: number | null;
  sub_benefit_code: number | null;
} {
  return {
    item_index: decision.index,
    benefit_code: decision.benefitCode,
    sub_benefit_code: decision.subBenefitCode,
    outcome: decision.outcome,
    approved: decision.approved,
    approved_quantity: decision.approvedQuantity,
    approved_duration: decision.approvedDuration,
    unit_price: decimalOf(decision.unitPrice),
    request_amount: decimalOf(decision.requestAmount),
    approved_amount: decimalOf(decision.approvedAmount),
    price_rejected_amount: decimalOf(decision.priceRejectedAmount),
    rejected_amount: decimalOf(decision.rejectedAmount),
    held_amount: decimalOf(decision.heldAmount),
    net_payable: decimalOf(decision.netPayable),
    ai_score: Math.round(decision.aiScore * 10_000) / 10_000,
    ai_alert: decision.aiAlert,
    reasons: decision.reasons,
    reviewer_status: null,
    reviewer_reasons: null,
  };
}
