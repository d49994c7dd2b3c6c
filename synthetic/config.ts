/** The generator's options, checked and with their defaults filled in. */

import { parseDay } from "./dates.js";
import { resolveInject } from "./injection/options.js";
import { PROVIDER_TYPES } from "./population/shares.js";
import type { ClaimHook, GenerateBatchOptions, ResolvedInject, TruthSink } from "./types.js";

const TYPES = PROVIDER_TYPES.length;

export interface Config {
  claims: number;
  itemsMin: number;
  itemsMax: number;
  seed: number;
  reference: string;
  description: string;
  start: number;
  end: number;
  members: number;
  providers: number;
  policyHolders: number;
  hooks: readonly ClaimHook[];
  inject: ResolvedInject | undefined;
  truth: TruthSink | undefined;
  chunkBytes: number;
}

export function resolveConfig(options: GenerateBatchOptions): Config {
  const whole = (value: number, what: string, min: number, max: number): number => {
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`${what} must be a whole number from ${min} to ${max}`);
    return value;
  };
  const claims = whole(options.claims, "claims", 1, 100_000_000);
  const items = options.itemsPerClaim ?? 4;
  const [lo, hi] = typeof items === "number" ? [items, items] : items;
  const itemsMin = whole(lo, "itemsPerClaim", 1, 1000);
  const itemsMax = whole(hi, "itemsPerClaim (upper bound)", itemsMin, 1000);
  const seed = whole(options.seed ?? 1, "seed", 0, 0xffffffff);
  const startText = options.startDate ?? "2026-01-01";
  const start = parseDay(startText, "startDate");
  const end = options.endDate === undefined ? start + 30 : parseDay(options.endDate, "endDate");
  if (end < start) throw new Error("endDate must not precede startDate");
  const reference = options.reference ?? `SYN-${startText}-S${seed}`;
  if (reference.length < 1 || reference.length > 100)
    throw new Error("reference must have 1 to 100 characters");
  const inject = options.inject === undefined ? undefined : resolveInject(options.inject);
  const description =
    options.description ??
    (inject === undefined
      ? `Synthetic clean claims batch: ${claims} claims, seed ${seed}`
      : `Synthetic claims batch with injected FWA patterns (rate ${inject.rate}): ${claims} claims and ` +
        `the ones injectors add, seed ${seed}`);
  if (description.length > 500) throw new Error("description must have at most 500 characters");
  const members = whole(options.members ?? Math.max(20, Math.ceil(claims / 3)), "members", 1, 50_000_000);
  const providers = whole(
    options.providers ?? Math.max(10, Math.ceil(claims / 250)),
    "providers",
    TYPES,
    1e7,
  );
  const policyHolders = whole(
    options.policyHolders ?? Math.max(3, Math.ceil(members / 400)),
    "policyHolders",
    1,
    1e7,
  );
  const chunkBytes = whole(options.chunkBytes ?? 1 << 20, "chunkBytes", 1, 1 << 28);
  return {
    ...{ claims, itemsMin, itemsMax, seed, reference, description, start, end },
    ...{ members, providers, policyHolders, hooks: options.hooks ?? [], chunkBytes },
    ...{ inject, truth: options.truth },
  };
}
