/**
 * Writes a synthetic claims batch (the synthetic/ package) to a file or stdout, with injected FWA patterns and
 * their ground truth on request.
 *
 *   node --import tsx scripts/generate-batch.ts --claims 250000 [--items 4|2-6] [--seed 1] [--gzip] [--out FILE]
 *     [--inject 0.05 [--patterns a,b] [--inject-seed N] [--truth FILE]]
 */
import { parseArgs } from "node:util";
import { FWA_PATTERNS, type FwaPattern, type GenerateBatchOptions, writeBatch } from "../synthetic/index.js";

const USAGE = `usage: node --import tsx scripts/generate-batch.ts --claims N [options]
  --claims N          number of claims (required)
  --items N|MIN-MAX   items per claim (default 4)
  --seed N            random seed (default 1)
  --start YYYY-MM-DD  first day of the batch (default 2026-01-01)
  --end YYYY-MM-DD    last day (default start + 30 days)
  --reference TEXT    batch_reference_id (default SYN-<start>-S<seed>)
  --members N, --providers N   population sizes (default claims/3, claims/250)
  --gzip              compress (also when --out ends in .gz)
  --level 1-9         gzip level (default 6)
  --out FILE          write to FILE (default stdout)
  --inject RATE       inject labelled FWA patterns into this share of the claims (0-0.5, e.g. 0.05)
  --patterns A,B      only these patterns (default all): ${FWA_PATTERNS.join(", ")}
  --inject-seed N     seed of the injection (default the batch seed)
  --min-providers N   providers per provider pattern, at least (default 4)
  --truth FILE        ground truth, JSON lines (default beside --out: NAME.truth.jsonl; needed for stdout)`;

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      claims: { type: "string" },
      items: { type: "string" },
      seed: { type: "string" },
      start: { type: "string" },
      end: { type: "string" },
      reference: { type: "string" },
      members: { type: "string" },
      providers: { type: "string" },
      gzip: { type: "boolean" },
      level: { type: "string" },
      out: { type: "string" },
      inject: { type: "string" },
      patterns: { type: "string" },
      "inject-seed": { type: "string" },
      "min-providers": { type: "string" },
      truth: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true || values.claims === undefined) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = values.help === true ? 0 : 2;
    return;
  }
  const range = values.items?.match(/^(\d+)(?:-|\.\.)(\d+)$/);
  const options: GenerateBatchOptions = {
    claims: Number(values.claims),
    ...(values.items === undefined
      ? {}
      : { itemsPerClaim: range ? [Number(range[1]), Number(range[2])] : Number(values.items) }),
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
    ...(values.start === undefined ? {} : { startDate: values.start }),
    ...(values.end === undefined ? {} : { endDate: values.end }),
    ...(values.reference === undefined ? {} : { reference: values.reference }),
    ...(values.members === undefined ? {} : { members: Number(values.members) }),
    ...(values.providers === undefined ? {} : { providers: Number(values.providers) }),
  };
  const injecting =
    values.inject !== undefined ||
    values.patterns !== undefined ||
    values["inject-seed"] !== undefined ||
    values["min-providers"] !== undefined;
  if (injecting)
    options.inject = {
      rate: values.inject === undefined ? 0.05 : Number(values.inject),
      ...(values.patterns === undefined
        ? {}
        : { patterns: values.patterns.split(",").map((p) => p.trim() as FwaPattern) }),
      ...(values["inject-seed"] === undefined ? {} : { seed: Number(values["inject-seed"]) }),
      ...(values["min-providers"] === undefined ? {} : { minProviders: Number(values["min-providers"]) }),
    };
  const result = await writeBatch(options, {
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(values.gzip === true ? { gzip: true } : {}),
    ...(values.level === undefined ? {} : { level: Number(values.level) }),
    ...(values.truth === undefined ? {} : { truth: values.truth }),
  });
  const fmt = (n: number) => n.toLocaleString("en-US");
  process.stderr.write(
    `${fmt(result.claims)} claims, ${fmt(result.items)} items: ${fmt(result.bytes)} bytes of JSON, ` +
      `${fmt(result.written)} bytes written${result.gzip ? " (gzip)" : ""} to ${values.out ?? "stdout"} ` +
      `in ${result.seconds.toFixed(1)} s\n`,
  );
  if (result.truth !== undefined)
    process.stderr.write(`${fmt(result.truth.records)} ground truth records to ${result.truth.path}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
