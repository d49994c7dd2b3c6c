/**
 * The prior-authorization engine (docs/architecture.md section 4): pure, deterministic, explainable. The checks run
 * independently and report findings; the amounts are then settled item by item (limits in request order),
 * the anomaly score may hold an item for the reviewer, and every outcome carries the reasons behind it.
 */
import { checkBenefits } from "./benefits.js";
import { checkClinical } from "./clinical.js";
import { checkDuplicates } from "./duplicates.js";
import { checkEligibility } from "./eligibility.js";
import type { CheckResult, Finding } from "./findings.js";
import { count, sar } from "./format.js";
import { checkLimits } from "./limits.js";
import { checkNetwork } from "./network.js";
import { checkContractPrices } from "./pricing.js";
import { checkQuantity } from "./quantity.js";
import { reason } from "./reasons.js";
import { combine, itemSignals, memberSignal, type Signal } from "./score.js";
import { applyLimit, type Draft, draft } from "./settle.js";
import type {
  EngineContext,
  EngineDecision,
  EngineRequest,
  ItemDecision,
  ItemOutcome,
  Reason,
} from "./types.js";

/** the order reasons are listed in: eligibility first, then coverage, price, clinical, quantity, duplicates */
const CHECKS = [
  checkEligibility,
  checkNetwork,
  checkBenefits,
  checkContractPrices,
  checkClinical,
  checkQuantity,
  checkDuplicates,
] as const;

/**
 * Decides every item of a request. `_now` is part of the contract (time is an argument, never read) but no
 * rule needs it: decisions depend only on the dates in the request, so re-running a request gives the same
 * decision whenever it runs.
 */
export function decide(request: EngineRequest, context: EngineContext, _now: Date): EngineDecision {
  const results: CheckResult[] = CHECKS.map((check) => check(request, context));
  const findings = request.items.map((_, i): Finding[] => results.flatMap((r) => r.findings[i] ?? []));
  const drafts = request.items.map((item, i) => draft(item, findings[i] ?? [], context.prices[i]));
  const limits = checkLimits(
    request,
    context,
    drafts.map((d) => d.approvedAmount),
    drafts.map((d) => d.rejects.length > 0),
  );
  const member = memberSignal(context);
  const items = drafts.map((d, i) => {
    const signals = [...itemSignals(request, d.item, context), ...(member === null ? [] : [member])];
    return finish(applyLimit(d, limits[i] ?? null), signals, context.settings.autoApprovalThreshold);
  });
  const requestAlerts = results.flatMap((r) => r.alerts);
  if (member !== null) requestAlerts.push(`member pattern: ${member.reason.message}`);
  const flagged = items.filter((item) => item.aiScore > 0);
  if (flagged.length > 0) {
    const highest = Math.max(...flagged.map((item) => item.aiScore));
    const held = items.filter((item) => item.outcome === "PENDING_REVIEW").length;
    requestAlerts.push(
      `anomaly score: ${flagged.length} of ${count(items.length, "item")} flagged (highest ${highest.toFixed(2)}), ${held} held for review`,
    );
  }
  return { requestAlerts, items, note: noteOf(items) };
}

function finish(d: Draft, signals: Signal[], threshold: number): ItemDecision {
  const { item } = d;
  const aiScore = combine(signals);
  const aiReasons = signals.map((s) => s.reason);
  const strongest = signals.reduce<Signal | null>(
    (best, s) => (best === null || s.strength > best.strength ? s : best),
    null,
  );
  const score = aiScore.toFixed(2);
  const alert = strongest === null ? null : `score ${score}: ${strongest.reason.message}`;
  if (d.rejects.length > 0 || d.approvedQuantity === 0) {
    return itemDecision(d, "REJECTED", 0, [...d.rejects, ...d.cuts, ...aiReasons], aiScore, alert);
  }
  if (aiScore > threshold) {
    const message = `score ${score} is above the auto-approval threshold ${threshold.toFixed(2)}: ${sar(d.approvedAmount)} held for the reviewer`;
    const reasons = [...d.cuts, ...aiReasons, reason("MZ-AI-05", message)];
    const held = `held for review (score ${score}): ${strongest?.reason.message ?? ""}`;
    return itemDecision(d, "PENDING_REVIEW", d.approvedAmount, reasons, aiScore, held);
  }
  const cut = d.cuts.length > 0 || d.approvedQuantity < item.quantity || d.approvedAmount < d.requestAmount;
  return itemDecision(
    d,
    cut ? "PARTIALLY_APPROVED" : "APPROVED",
    0,
    [...d.cuts, ...aiReasons],
    aiScore,
    alert,
  );
}

/** the decision in the contract's field order; rejected and held items approve nothing */
function itemDecision(
  d: Draft,
  outcome: ItemOutcome,
  heldAmount: number,
  reasons: Reason[],
  aiScore: number,
  aiAlert: string | null,
): ItemDecision {
  const approved = outcome === "APPROVED" || outcome === "PARTIALLY_APPROVED";
  const approvedAmount = approved ? d.approvedAmount : 0;
  return {
    index: d.item.index,
    outcome,
    approved,
    approvedQuantity: approved ? d.approvedQuantity : 0,
    approvedDuration: d.approvedDays === null ? null : String(approved ? d.approvedDays : 0),
    unitPrice: d.unitPrice,
    requestAmount: d.requestAmount,
    approvedAmount,
    priceRejectedAmount: d.priceRejectedAmount,
    rejectedAmount: d.rejectedAmount,
    heldAmount,
    netPayable: approvedAmount,
    benefitCode: d.item.benefitCode,
    subBenefitCode: d.item.subBenefitCode,
    reasons,
    aiScore,
    aiAlert,
  };
}

const OUTCOME_WORDS: Record<ItemOutcome, string> = {
  APPROVED: "approved",
  PARTIALLY_APPROVED: "partially approved",
  REJECTED: "rejected",
  PENDING_REVIEW: "held for review",
};

/** "3 items: 2 approved, 1 rejected; SAR 1,200.00 of 1,500.00 approved" */
function noteOf(items: readonly ItemDecision[]): string {
  const counts = (Object.keys(OUTCOME_WORDS) as ItemOutcome[])
    .map((outcome) => [outcome, items.filter((item) => item.outcome === outcome).length] as const)
    .filter(([, n]) => n > 0)
    .map(([outcome, n]) => `${n} ${OUTCOME_WORDS[outcome]}`);
  const total = (pick: (item: ItemDecision) => number): number =>
    items.reduce((sum, item) => sum + pick(item), 0);
  const held = total((item) => item.heldAmount);
  const heldText = held > 0 ? `, ${sar(held)} held for review` : "";
  return `${count(items.length, "item")}: ${counts.join(", ") || "none"}; SAR ${sar(total((item) => item.approvedAmount))} of ${sar(total((item) => item.requestAmount))} approved${heldText}`;
}
