/**
 * Labelled FWA patterns for the synthetic claims batches (docs/architecture.md section 5).
 * The generator runs the injector as its last hook when `inject` is given: it alters some of the batch's clean
 * claims, adds others (made as the generator makes claims, for the same population), and reports exactly
 * what it did as ground truth, one JSON object per line. The detectors are never told: they see the batch.
 *
 * Patterns (kind: rule patterns break a certain rule, statistical ones are unusual only against the batch):
 *   rule         duplicate_billing        a second, identical claim (same member, provider, date, items and
 *                                         every other field; only the claim_id is new), added later in the batch
 *   rule         service_before_coverage  the claim's insurance_start_date (and insurance_addition_date) set to
 *                                         1-45 days after the claim date: the member joined after the service
 *   rule         impossible_diagnosis     the primary diagnosis replaced by one the member's sex or age rules out:
 *                                         a pregnancy O-code for a male or for a girl under 12, prostate N40/N41
 *                                         for a female or N40 for a boy under 15, a perinatal P-code at age 1 or
 *                                         over (detail: "gender" or "age")
 *   statistical  price_inflation          one item's unit amount x3 to x10
 *   statistical  quantity_inflation       one item's quantity x5 to x20
 *   statistical  same_day_unbundling      a claim of 2 or more items split into 2 or 3 claims of the same
 *                                         member, provider and day (the items shared out, none lost)
 *   statistical  excessive_los            an inpatient stay made at least 3 times as long, and at least twice
 *                                         the diagnosis' usual longest stay (the admission moved earlier; the
 *                                         per-day visit 99232 billed for the new stay)
 *   statistical  doctor_shopping          a member: at an office visit for an acute complaint, 3 to 6 more office
 *                                         visits for the same diagnosis at other clinics, from 2 days before to
 *                                         6 days after
 *   statistical  upcoding_provider        a clinic that bills 60-85% of its established-patient visits 99212-
 *                                         99214 as 99215 (at its own 99215 price)
 *   statistical  high_volume_provider     a clinic with 3-5 times its volume: added claims for its own members
 *                                         (60%) and others, of 2 diagnoses only (so most of its claims are on
 *                                         2 diagnoses), with 2-4 more items than the batch's claims, a
 *                                         99214/99215 visit and 2-4 high-cost office services each (more where
 *                                         needed to fill the claim without repeating a service)
 *
 * Rate: `rate` is the share of the batch's claims the injectors touch, counting the claims they add; it is
 * shared evenly by the patterns enabled. Each claim-level pattern fires on a claim it can apply to with the
 * odds that give it its share (one pattern per claim at most). Provider patterns take whole clinics: as many
 * as their share of claims needs, at least `minProviders` each, at most 5% of the clinics (at least one), so
 * in small batches they may touch more than their share. A claim of a labelled provider or member takes no
 * other pattern. Added claims take claim_ids after the batch's own (CLM-<claims + n>) and go out a little
 * later in the stream (a duplicate 1-400 claims after its original).
 *
 * Ground truth (TruthRecord), the labelling rules:
 *   {level: "item", claim_id, item_index, pattern, detail?}: an item that is positive for the pattern (item_index
 *     0-based within the claim as it goes out). Positive are:
 *       duplicate_billing: every item of the added copy (the first claim, the original, is not positive);
 *       service_before_coverage, impossible_diagnosis, excessive_los: every item of the claim (the anomaly is
 *         the claim's);
 *       price_inflation, quantity_inflation: the one item changed;
 *       same_day_unbundling: every item of every part (the claim that keeps the claim_id, and the added ones);
 *       doctor_shopping: every item of the visit it starts from and of the added visits;
 *       upcoding_provider: the visit items changed to 99215 (not the provider's own 99215s, nor its other items);
 *       high_volume_provider: every item of the added claims; of the provider's own claims, only the items
 *         that repeat a service (code and quantity) of an added claim for the same member on the same day (the
 *         added claims keep clear of the member's claims there so far, not of those still to come).
 *   {level: "claim", claim_id, pattern, role}: a claim the injection touched: "changed" (altered), "added"
 *     (made by the injector), "part" (unchanged, but items of it are positive: the first doctor-shopping
 *     visit; a high-volume clinic's own claim that repeats services of an added one),
 *     "context" (unchanged and not positive: a duplicate's original; any other claim of a labelled provider, and
 *     any later claim of a labelled member).
 *   {level: "provider", provider_id, pattern, detail?} and {level: "member", member_id, pattern, detail?}: the
 *     entity patterns (upcoding_provider, high_volume_provider; doctor_shopping).
 * A claim is clean when it has no claim record and neither its provider nor its member has an entity record
 * (a labelled member's claims made before the injector chose it have no claim record).
 */
import type { Rng } from "../random.js";
import type { ClaimHook, ResolvedInject, TruthSink } from "../types.js";
import { CLAIM_PATTERNS, type InjectState } from "./claim-patterns.js";
import { addVolume, chooseClinics, type ProviderPlans, upcode } from "./provider-patterns.js";
import { TruthWriter } from "./truth-writer.js";

/** the injector: a hook with its own random stream, state and truth; make one per pass over the batch */
export function createInjector(options: ResolvedInject, rng: Rng, sink: TruthSink): ClaimHook {
  const enabled = new Set(options.patterns);
  const share = options.patterns.length === 0 ? 0 : options.rate / options.patterns.length;
  const truth = new TruthWriter(sink);
  const claimPatterns = CLAIM_PATTERNS.filter((p) => enabled.has(p.name));
  const eligibleSeen = new Float64Array(claimPatterns.length);
  const odds = new Float64Array(claimPatterns.length);
  const state: InjectState = { rng, truth, shoppers: new Set(), clinics: [] };
  let considered = 0;
  // the clinics are chosen on the first claim, when the population is known
  let plans: ProviderPlans | undefined;

  return (claim, ctx) => {
    plans ??= chooseClinics(ctx, enabled, share, options.minProviders, state);
    const level = plans.upcoders.get(ctx.provider);
    if (level !== undefined) {
      upcode(claim, ctx, level, state);
      return claim;
    }
    const plan = plans.highVolume.get(ctx.provider);
    if (plan !== undefined) {
      addVolume(claim, ctx, plan, state);
      return claim;
    }
    if (state.shoppers.has(ctx.member)) {
      truth.claim(claim, "doctor_shopping", "context");
      return claim;
    }
    // each claim-level pattern fires on the claims it fits with the odds that give it its share of the batch
    // (its eligible share estimated as the batch goes); one draw picks at most one
    considered += 1;
    let fitting = 0;
    for (const [i, pattern] of claimPatterns.entries()) {
      odds[i] = 0;
      if (!pattern.eligible(claim, ctx, state)) continue;
      eligibleSeen[i] = (eligibleSeen[i] as number) + 1;
      odds[i] = share / (pattern.weight * ((eligibleSeen[i] as number) / considered));
      fitting += 1;
    }
    if (fitting === 0) return claim;
    let draw = rng.next();
    for (const [i, pattern] of claimPatterns.entries()) {
      draw -= odds[i] as number;
      if (draw < 0) {
        pattern.apply(claim, ctx, state);
        break;
      }
    }
    return claim;
  };
}
