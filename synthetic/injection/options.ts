/** The injection's options, checked and with their defaults filled in. */
import { FWA_PATTERNS, type InjectOptions, type ResolvedInject } from "../types.js";

export function resolveInject(options: InjectOptions): ResolvedInject {
  const rate = options.rate ?? 0.05;
  if (!(typeof rate === "number" && rate >= 0 && rate <= 0.5))
    throw new Error("inject rate must be a number from 0 to 0.5");
  const patterns = options.patterns ?? FWA_PATTERNS;
  for (const p of patterns)
    if (!(FWA_PATTERNS as readonly string[]).includes(p))
      throw new Error(`unknown FWA pattern ${p}: one of ${FWA_PATTERNS.join(", ")}`);
  const seed = options.seed;
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff))
    throw new Error("inject seed must be a whole number from 0 to 4294967295");
  const minProviders = options.minProviders ?? 4;
  if (!(Number.isInteger(minProviders) && minProviders >= 0 && minProviders <= 1000))
    throw new Error("minProviders must be a whole number from 0 to 1000");
  return {
    rate,
    patterns: FWA_PATTERNS.filter((p) => patterns.includes(p)),
    ...(seed === undefined ? {} : { seed }),
    minProviders,
  };
}
