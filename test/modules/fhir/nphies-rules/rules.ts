import {
  CLAIM_RESPONSE_BINDINGS,
  CLAIM_RESPONSE_CARDINALITY,
  CLAIM_RESPONSE_REFERENCES,
} from "./claim-response.js";
import { CLAIM_RESPONSE_ADJUDICATION } from "./claim-response-adjudication.js";
import { CLAIM_RESPONSE_BUSINESS } from "./claim-response-bv.js";
import { COMMUNICATION_REQUEST_RULES, OPERATION_OUTCOME_RULES } from "./communication.js";
import { type Ctx, readMessage } from "./context.js";
import { DATA_TYPE_RULES } from "./datatypes.js";
import { ELIGIBILITY_RULES } from "./eligibility.js";
import { GENERIC_RULES } from "./generic.js";
import { BUNDLE_RULES, HEADER_RULES } from "./header.js";
import type { Rule, Violation } from "./rule.js";
import { TASK_RULES } from "./task.js";
import type { Terminology } from "./terminology.js";

export type { Rule, Violation } from "./rule.js";

/**
 * The executable subset of validation-rules.csv a payer's messages must satisfy, grouped by resource.
 * Left out, by reason (see README.md for the ids):
 * - about a provider's request (Claim, CoverageEligibilityRequest, Communication, cancel/status/poll requests);
 * - about payments (PaymentNotice, PaymentReconciliation) and polling (poll-response comes from NPHIES);
 * - advanced authorization and prescriber messages (a payer-initiated ClaimResponse Mizan does not send);
 * - needing state beyond the exchange (duplicates, "successfully posted", earlier responses, registries);
 * - NPHIES' own processing errors (GE, XSD, profile engine messages) and rules with no checkable content.
 */
export const RULES: Rule[] = [
  ...BUNDLE_RULES,
  ...HEADER_RULES,
  ...CLAIM_RESPONSE_CARDINALITY,
  ...CLAIM_RESPONSE_BINDINGS,
  ...CLAIM_RESPONSE_REFERENCES,
  ...CLAIM_RESPONSE_BUSINESS,
  ...CLAIM_RESPONSE_ADJUDICATION,
  ...ELIGIBILITY_RULES,
  ...TASK_RULES,
  ...COMMUNICATION_REQUEST_RULES,
  ...OPERATION_OUTCOME_RULES,
  ...GENERIC_RULES,
  ...DATA_TYPE_RULES,
];

/** every validation-rules.csv id the checker implements */
export const IMPLEMENTED_RULE_IDS: readonly string[] = [...new Set(RULES.map((rule) => rule.id))].sort();

/** the violations of a payer's message; `request` is the message it answers (none for communication-request) */
export function checkResponseMessage(
  response: unknown,
  request: unknown | undefined,
  terminology: Terminology,
): Violation[] {
  const ctx: Ctx = {
    response: readMessage(response),
    request: request === undefined ? undefined : readMessage(request),
    terminology,
  };
  const violations = RULES.filter((rule) => rule.applies(ctx)).flatMap((rule) => rule.check(ctx));
  // one report per rule and place: a rule listed for two elements may meet the same node twice
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.rule} ${v.path} ${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
