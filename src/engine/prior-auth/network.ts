/**
 * Network (standard mode): a provider outside the member's network is not covered, except in an emergency,
 * when the member goes wherever care is; then the skip is said in a request alert so the reviewer sees it.
 */
import { type CheckResult, noFindings, rejectAll } from "./findings.js";
import { reason } from "./reasons.js";
import type { EngineContext, EngineRequest } from "./types.js";

export function checkNetwork(request: EngineRequest, context: EngineContext): CheckResult {
  const none = noFindings(request.items);
  const inNetwork = context.coverage?.providerInNetwork;
  if (context.mode !== "standard") return { findings: none, alerts: [] };
  if (request.isEmergency || request.claimSubType === "EMERGENCY") {
    const outside =
      inNetwork === false ? ` (provider ${request.providerCchiNo} is outside the member's network)` : "";
    return { findings: none, alerts: [`network check skipped: emergency${outside}`] };
  }
  if (inNetwork !== false) return { findings: none, alerts: [] };
  const message = `provider ${request.providerCchiNo} is not in the member's network`;
  return { findings: rejectAll(request.items, [reason("MZ-NET-01", message)]), alerts: [] };
}
