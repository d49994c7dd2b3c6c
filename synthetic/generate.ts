/**
 * Synthetic, clean claims batches for the batch claims service (docs/architecture.md sections 5 and 7). A
 * population of members, policy holders and providers is drawn first; each claim then takes a member, a kind
 * of care on a free day of the member's calendar, and a diagnosis that fits the member's sex and age, and
 * bills services that fit the diagnosis and the setting, at the provider's prices. Everything follows from
 * the seed.
 *
 * FWA injectors plug in as `hooks`: each sees every claim as it is made, with its context and its own random
 * stream (so the clean claims stay the same), and may change the claim or return another in its place; the
 * context also lets a hook build further claims as the generator would (`make`) and add claims to the batch
 * (`emit`). The labelled FWA patterns of injection/injector.ts run as the last hook when `inject` is given,
 * and report their ground truth to `truth`.
 */
import type { BatchClaimInput } from "../src/modules/claims-batch/claim.js";
import { ClaimMaker, type Queued } from "./claims/maker.js";
import { type Config, resolveConfig } from "./config.js";
import { createInjector } from "./injection/injector.js";
import { buildPopulation } from "./population/build-population.js";
import { mixSeed, Rng } from "./random.js";
import type { GenerateBatchOptions } from "./types.js";

/** the claims of a resolved configuration, in order, with the hooks' changes and the claims they add */
export function* claimsOf(config: Config): Generator<BatchClaimInput> {
  const maker = new ClaimMaker(config, buildPopulation(config));
  const hooks = [...config.hooks];
  if (config.inject !== undefined) {
    const { inject } = config;
    hooks.push(
      createInjector(inject, new Rng(mixSeed(inject.seed ?? config.seed, 3)), config.truth ?? (() => {})),
    );
  }
  const { queue } = maker;
  for (let index = 0; index < config.claims; index += 1) {
    let claim = maker.claim(index);
    for (const hook of hooks) claim = hook(claim, maker.context) ?? claim;
    yield claim;
    while (queue.length > 0 && (queue[0] as Queued).at <= index) yield (queue.shift() as Queued).claim;
  }
  for (const { claim } of queue.splice(0)) yield claim;
}

/** the claims of a batch as objects, in order: what generateBatch serialises */
export function generateClaims(options: GenerateBatchOptions): Generator<BatchClaimInput> {
  return claimsOf(resolveConfig(options));
}
