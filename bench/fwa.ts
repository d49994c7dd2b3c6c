/**
 * `npm run bench:fwa`: the quality of the FWA detectors on a labelled synthetic batch. The batch is generated
 * in memory with injected patterns (synthetic/injection/), every claim goes through JSON and the batch
 * schema as an upload's would, the columns are built and `analyzeBatch` runs the detectors as the batch job
 * does; the decisions are then held against the ground truth (synthetic/metrics/ says how). The detectors
 * see only the batch. Prints a table with the targets met or missed, then one JSON line with every figure.
 * Exits 0 whatever the figures (a benchmark, not a test).
 *
 * Environment: BENCH_FWA_CLAIMS (default 100,000 claims of 4 items), BENCH_FWA_RATE (share of claims the
 * injectors touch, default 0.05), BENCH_FWA_SEED (default 1), BENCH_FWA_PROVIDERS (providers per provider
 * pattern, at least; default 6), BENCH_FWA_THRESHOLD (the flag threshold, default 0.5).
 */
import { Compile } from "typebox/compile";
import { analyzeBatch } from "../src/engine/fwa/analyze.js";
import { claimIdOf, createColumnarBuilder } from "../src/engine/fwa/columns/columnar.js";
// the detectors benchmarked (this one line switches the set)
import { FWA_DETECTORS as DETECTORS } from "../src/engine/fwa/registry.js";
import type { BatchDecisions, ColumnarBatchView } from "../src/engine/fwa/types.js";
import { BatchClaim, type BatchClaimInput } from "../src/modules/claims-batch/claim.js";
// (registers the formats BatchClaim refers to)
import "../src/platform/http/validation.js";
import {
  ENTITY_THRESHOLD,
  evaluate,
  type FwaFigures,
  type FwaPattern,
  generateClaims,
  TARGETS,
  type TruthRecord,
} from "../synthetic/index.js";

const CLAIMS = Number(process.env.BENCH_FWA_CLAIMS ?? 100_000);
const RATE = Number(process.env.BENCH_FWA_RATE ?? 0.05);
const SEED = Number(process.env.BENCH_FWA_SEED ?? 1);
const PROVIDERS = Number(process.env.BENCH_FWA_PROVIDERS ?? 6);
const THRESHOLD = Number(process.env.BENCH_FWA_THRESHOLD ?? 0.5);

const seconds = (since: number): number => Math.round((performance.now() - since) / 10) / 100;
const f3 = (x: number): string => (Number.isNaN(x) ? "-" : x.toFixed(3));
const pct = (x: number): string => (Number.isNaN(x) ? "-" : `${(100 * x).toFixed(2)}%`);
const mark = (met: boolean): string => (met ? "met" : "MISSED");

/** a text table: the first column (and the last, when `leftLast`) left-aligned, the others right-aligned */
function table(rows: readonly (readonly string[])[], leftLast = false): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const last = widths.length - 1;
  const line = (r: readonly string[]) =>
    r
      .map((cell, i) =>
        i === 0 || (leftLast && i === last)
          ? cell.padEnd(i === last ? 0 : (widths[i] as number))
          : cell.padStart(widths[i] as number),
      )
      .join("  ");
  return [line(rows[0] ?? []), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join(
    "\n",
  );
}

function print(figures: FwaFigures, context: Record<string, unknown>): void {
  const rows: string[][] = [
    [
      ...["pattern", "kind", "claims", "items", "detected", "recall", "target", ""],
      ...["precision", "vs clean", `entities (score >= ${ENTITY_THRESHOLD})`],
    ],
  ];
  for (const p of figures.patterns)
    rows.push([
      ...[p.pattern, p.kind, String(p.claims), String(p.items), String(p.detected), f3(p.recall)],
      ...[`>= ${p.target}`, mark(p.met), f3(p.precision), f3(p.precisionVsClean)],
      p.entity === undefined ? "" : `${p.entity.detected}/${p.entity.labelled} ${p.entity.level}s`,
    ]);
  const o = figures.overall;
  rows.push([
    ...["overall", "", String(figures.touchedClaims), String(figures.labelledItems), String(o.detected)],
    ...[f3(o.recall), "", "", f3(o.precision), f3(o.precisionAgainstClean), ""],
  ]);
  console.log(table(rows));
  console.log(
    "  claims: claims the pattern touched (changed, added, or beside them); items: items it labels; " +
      "detected: those flagged or rejected.\n" +
      "  precision: detected / (detected + false positives apportioned to the pattern: each flagged or rejected " +
      "unlabelled item\n  split over its finding codes, each code's part over the patterns of the labelled items " +
      "carrying it); vs clean: only\n  false positives on clean claims counted. Overall: all flagged or rejected " +
      `items (${o.predicted}); ${f3(figures.unattributedFalsePositives)} false positives carry only codes no ` +
      "labelled item carries.",
  );
  const fp = figures.cleanClaimFpRate;
  const item = figures.itemAuc;
  const prov = figures.providerAuc;
  const mem = figures.memberAuc;
  const summary = [
    ["figure", "value", "target", ""],
    ["macro recall (mean of patterns)", f3(o.macroRecall), "", ""],
    ["precision against clean items only", f3(o.precisionAgainstClean), "", ""],
    [
      `false positives on clean claims (${figures.cleanClaimsFlagged} of ${figures.cleanClaims})`,
      pct(fp),
      `<= ${pct(TARGETS.cleanClaimFpRate)}`,
      mark(fp <= TARGETS.cleanClaimFpRate),
    ],
    ["false positives on clean items", pct(figures.cleanItemFpRate), "", ""],
    [`ROC-AUC items (${item.positives} labelled vs ${item.negatives} clean)`, f3(item.auc), "", ""],
    [
      `ROC-AUC providers (${prov.positives} vs ${prov.negatives}; providerScore for ${prov.fromEntityScore}, ` +
        `mean item score for ${prov.fromItemMean})`,
      f3(prov.auc),
      `>= ${TARGETS.providerAuc}`,
      mark(prov.auc >= TARGETS.providerAuc),
    ],
    ["ROC-AUC providers, mean item score of all", f3(figures.providerAucItemMean.auc), "", ""],
    [
      `ROC-AUC members (${mem.positives} vs ${mem.negatives}; memberScore for ${mem.fromEntityScore})`,
      f3(mem.auc),
      "",
      "",
    ],
    [
      "unlabelled providers / members scored >= threshold",
      `${figures.unlabelledProvidersFlagged} / ${figures.unlabelledMembersFlagged}`,
      "",
      "",
    ],
  ];
  console.log(`\n${table(summary)}`);
  const codes = [["finding code", "items", "labelled", "on clean claims", "labelled items by pattern"]];
  for (const c of figures.codes)
    codes.push([
      ...[c.code, String(c.items), String(c.labelled), String(c.clean)],
      Object.entries(c.patterns)
        .filter(([, share]) => share >= 0.01)
        .map(([p, share]) => `${p} ${Math.round(share * 100)}%`)
        .join(", "),
    ]);
  console.log(`\n${table(codes, true)}`);
  console.log(`\ntargets: ${figures.targets.met} of ${figures.targets.of} met`);
  const supporting = (context.supporting ?? []) as ReturnType<typeof supportingReasons>;
  if (supporting.length > 0) console.log("supporting findings (reasons that flag no item alone):");
  for (const { code, items, patterns } of supporting)
    console.log(
      `  ${code} on ${items} items; planted claims carrying it: ` +
        Object.entries(patterns)
          .map(([p, { claims, of }]) => `${p} ${claims} of ${of}`)
          .join(", "),
    );
  console.log(JSON.stringify({ bench: "fwa", ...context, ...figures }));
}

/**
 * The supporting findings (a long stay, a high price: Finding.supporting) flag no item alone, so a pattern
 * they alone find is not "detected" above; what they found stands as reasons: per code, the items carrying
 * it, and the planted claims of each pattern among them.
 */
function supportingReasons(
  truth: readonly TruthRecord[],
  view: ColumnarBatchView,
  decisions: BatchDecisions,
) {
  const patternsOf = new Map<string, Set<FwaPattern>>();
  for (const r of truth)
    if (r.level === "item" || r.level === "claim")
      patternsOf.set(r.claim_id, (patternsOf.get(r.claim_id) ?? new Set()).add(r.pattern));
  const planted = new Map<FwaPattern, number>();
  for (const patterns of patternsOf.values())
    for (const p of patterns) planted.set(p, (planted.get(p) ?? 0) + 1);
  const byCode = new Map<string, { items: number; claims: Map<FwaPattern, Set<number>> }>();
  for (const [item, findings] of decisions.itemFindings)
    for (const f of findings) {
      if (f.supporting !== true) continue;
      const code = byCode.get(f.code) ?? { items: 0, claims: new Map() };
      byCode.set(f.code, code);
      code.items += 1;
      const c = view.itemClaim[item] as number;
      for (const p of patternsOf.get(claimIdOf(view, c)) ?? [])
        code.claims.set(p, (code.claims.get(p) ?? new Set()).add(c));
    }
  return [...byCode].map(([code, { items, claims }]) => ({
    code,
    items,
    patterns: Object.fromEntries(
      [...claims].map(([p, set]) => [p, { claims: set.size, of: planted.get(p) ?? 0 }]),
    ),
  }));
}

async function main(): Promise<void> {
  const began = performance.now();
  const truth: TruthRecord[] = [];
  const claims: BatchClaimInput[] = [];
  let items = 0;
  // as an upload: each claim parsed from its JSON on its own and checked against the batch schema
  const check = Compile(BatchClaim);
  let invalid = 0;
  for (const generated of generateClaims({
    claims: CLAIMS,
    seed: SEED,
    inject: { rate: RATE, minProviders: PROVIDERS },
    truth: (record) => truth.push(record),
  })) {
    const claim = JSON.parse(JSON.stringify(generated)) as BatchClaimInput;
    if (!check.Check(claim)) invalid += 1;
    claims.push(claim);
    items += claim.claim_items.length;
  }
  const generateSeconds = seconds(began);
  const built = performance.now();
  const builder = createColumnarBuilder({ claims: claims.length, items });
  for (const claim of claims) builder.add(claim);
  const view = builder.finish();
  const buildSeconds = seconds(built);
  const analysed = performance.now();
  const decisions = analyzeBatch(view, DETECTORS, { flagThreshold: THRESHOLD });
  const analysisSeconds = seconds(analysed);
  const figures = evaluate(claims, truth, view, decisions);
  const supporting = supportingReasons(truth, view, decisions);
  const patterns = new Set(truth.map((r) => r.pattern) as FwaPattern[]);
  console.log(
    `FWA quality: ${claims.length.toLocaleString("en-US")} claims (${CLAIMS.toLocaleString("en-US")} generated, ` +
      `the rest added by injectors), ${items.toLocaleString("en-US")} items, seed ${SEED}, rate ${RATE}, ` +
      `${patterns.size} patterns; ${invalid} invalid claims; ${figures.touchedClaims} claims touched ` +
      `(${pct(figures.touchedClaims / claims.length)}), ${figures.cleanClaims} clean`,
  );
  console.log(`detectors: ${DETECTORS.map((d) => d.name).join(", ")}; flag threshold ${THRESHOLD}`);
  console.log(
    `time: generate and parse ${generateSeconds} s, columns ${buildSeconds} s, analysis ${analysisSeconds} s\n`,
  );
  print(figures, {
    supporting,
    seed: SEED,
    rate: RATE,
    flagThreshold: THRESHOLD,
    detectors: DETECTORS.map((d) => d.name),
    invalidClaims: invalid,
    seconds: { generate: generateSeconds, columns: buildSeconds, analysis: analysisSeconds },
  });
}

main().catch((error: unknown) => {
  // a benchmark: report and exit 0
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
});
