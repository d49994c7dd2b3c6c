/**
 * `npm run bench:fwa:real`: FWA quality on real labelled claims that nobody here made (the fwa-real data of
 * the shared test data: 14 monthly batches of real inpatient claims, fraud labels for half of the
 * providers). Each monthly batch is analysed alone, as the batch job does (every claim through the batch
 * schema, the columns, `analyzeBatch` with every detector, then the rankings); nothing carries over from
 * one batch to the next. A provider's score over the year is the claim-weighted mean of its monthly
 * `risk_score`; the two volume baselines (claims, claimed amount) are computed the same way from their
 * monthly figures.
 *
 * Guarding against fooling ourselves: the labelled providers are split by their id's SHA-256 (even: tune,
 * odd: report). The ranking's weights (sensitivity.ts, RANKING) were set on the tune half; the report half
 * is the figure to quote. Both halves and all labelled providers are printed.
 *
 * Environment: BENCH_FWA_REAL_DIR (default ../shared/data/fwa-real), BENCH_FWA_THRESHOLD (default 0.5).
 * Skips with a message where the data is absent. Exits 0 whatever the figures.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Compile } from "typebox/compile";
import { analyzeBatch } from "../src/engine/fwa/analyze.js";
import { createColumnarBuilder } from "../src/engine/fwa/columnar.js";
import { FWA_DETECTORS } from "../src/engine/fwa/detectors.js";
import { rankProviders } from "../src/engine/fwa/rankings.js";
import { BatchClaim, type BatchClaimInput } from "../src/modules/claims-batch/claim.js";
// (registers the formats BatchClaim refers to)
import "../src/platform/http/validation.js";
import { averagePrecision, rocAuc } from "./fwa-metrics.js";

const DIR =
  process.env.BENCH_FWA_REAL_DIR ?? join(import.meta.dirname, "..", "..", "shared", "data", "fwa-real");
const THRESHOLD = Number(process.env.BENCH_FWA_THRESHOLD ?? 0.5);

interface Yearly {
  /** sums over months of claims x monthly figure */
  risk: number;
  claims: number;
  amount: number;
  /** sum of monthly claims x monthly claims, for the claim-weighted mean of monthly claims */
  claimsWeighted: number;
}

const f3 = (x: number): string => (Number.isNaN(x) ? "-" : x.toFixed(3));

function readLabels(): Map<string, boolean> {
  const lines = readFileSync(join(DIR, "labels.csv"), "utf8").trim().split(/\r?\n/).slice(1);
  return new Map(lines.map((line) => line.split(",")).map(([id, fraud]) => [id as string, fraud === "1"]));
}

const halfOf = (providerId: string): "tune" | "report" =>
  (createHash("sha256").update(providerId).digest()[31] as number) % 2 === 0 ? "tune" : "report";

function main(): void {
  if (!existsSync(join(DIR, "labels.csv"))) {
    console.log(`bench:fwa:real skipped: no labelled real claims at ${DIR}`);
    return;
  }
  const labels = readLabels();
  const check = Compile(BatchClaim);
  const yearly = new Map<string, Yearly>();
  let claimsTotal = 0;
  let flaggedTotal = 0;
  let labelledClaims = 0;
  let fraudClaims = 0;
  let flaggedLabelled = 0;
  let flaggedFraud = 0;
  let seconds = 0;
  const files = readdirSync(join(DIR, "batches"))
    .filter((f) => f.endsWith(".json.gz"))
    .sort();
  for (const file of files) {
    const body = JSON.parse(gunzipSync(readFileSync(join(DIR, "batches", file))).toString("utf8")) as {
      claims: unknown[];
    };
    const started = performance.now();
    const builder = createColumnarBuilder();
    for (const claim of body.claims) {
      if (!check.Check(claim)) throw new Error(`${file}: a claim fails the batch schema`);
      builder.add(claim as BatchClaimInput);
    }
    const view = builder.finish();
    const decisions = analyzeBatch(view, FWA_DETECTORS, { flagThreshold: THRESHOLD });
    const providers = rankProviders(view, decisions);
    seconds += (performance.now() - started) / 1000;
    for (const p of providers) {
      const y = yearly.get(p.id) ?? { risk: 0, claims: 0, amount: 0, claimsWeighted: 0 };
      y.risk += p.claims * p.riskScore;
      y.claims += p.claims;
      y.amount += p.claims * p.claimedAmount;
      y.claimsWeighted += p.claims * p.claims;
      yearly.set(p.id, y);
    }
    for (let c = 0; c < view.claimCount; c += 1) {
      const flagged = decisions.claimStatus[c] !== "approved";
      const label = labels.get(view.strings[view.providerId[c] as number] as string);
      claimsTotal += 1;
      if (flagged) flaggedTotal += 1;
      if (label === undefined) continue;
      labelledClaims += 1;
      if (label) fraudClaims += 1;
      if (flagged) flaggedLabelled += 1;
      if (flagged && label) flaggedFraud += 1;
    }
  }

  const figures: Record<string, unknown> = {};
  const rows: string[][] = [
    ["providers", "n", "fraud", "risk ROC", "risk PR", "claims ROC", "claims PR", "amount ROC", "amount PR"],
  ];
  for (const half of ["report", "tune", "all"] as const) {
    const scores = { risk: [[], []], claims: [[], []], amount: [[], []] } as Record<
      string,
      [number[], number[]]
    >;
    for (const [id, y] of yearly) {
      const label = labels.get(id);
      if (label === undefined || (half !== "all" && halfOf(id) !== half)) continue;
      const side = label ? 0 : 1;
      scores.risk?.[side].push(y.risk / y.claims);
      scores.claims?.[side].push(y.claimsWeighted / y.claims);
      scores.amount?.[side].push(y.amount / y.claims);
    }
    const measured = Object.fromEntries(
      Object.entries(scores).map(([name, [pos, neg]]) => [
        name,
        { roc_auc: rocAuc(pos, neg), pr_auc: averagePrecision(pos, neg) },
      ]),
    );
    const [pos, neg] = scores.risk as [number[], number[]];
    figures[half] = { providers: pos.length + neg.length, fraud: pos.length, ...measured };
    rows.push([
      half,
      String(pos.length + neg.length),
      String(pos.length),
      ...["risk", "claims", "amount"].flatMap((name) => [
        f3(measured[name]?.roc_auc ?? Number.NaN),
        f3(measured[name]?.pr_auc ?? Number.NaN),
      ]),
    ]);
  }
  const flaggedShare = flaggedTotal / claimsTotal;
  const fraudShareOfFlagged = flaggedFraud / Math.max(1, flaggedLabelled);
  const fraudShareOfClaims = fraudClaims / labelledClaims;
  figures.flags = {
    claims: claimsTotal,
    flagged: flaggedTotal,
    flagged_share: flaggedShare,
    fraud_share_of_flagged_labelled: fraudShareOfFlagged,
    fraud_share_of_labelled_claims: fraudShareOfClaims,
    lift: fraudShareOfFlagged / fraudShareOfClaims,
  };
  figures.analysis_seconds = Math.round(seconds * 100) / 100;

  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  for (const r of rows)
    console.log(
      r
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
        .join("  "),
    );
  console.log(
    `\nclaims flagged or rejected: ${flaggedTotal} of ${claimsTotal} (${(100 * flaggedShare).toFixed(2)} %); ` +
      `of the flagged labelled claims ${(100 * fraudShareOfFlagged).toFixed(1)} % are fraud-labelled providers', ` +
      `against ${(100 * fraudShareOfClaims).toFixed(1)} % of all labelled claims (lift ${(fraudShareOfFlagged / fraudShareOfClaims).toFixed(2)})`,
  );
  console.log(
    `the 14 analyses took ${figures.analysis_seconds} s\n${JSON.stringify({ bench: "fwa-real", ...figures })}`,
  );
}

main();
