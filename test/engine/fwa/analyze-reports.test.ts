/**
 * A detector run elsewhere (another thread, over the same columns) and its report replayed in its place:
 * the decisions are the same as had every detector run in place, on a generated batch with injected FWA
 * patterns, so that every detector the analysis's thread hands off finds something.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch, type DetectorReport, reportOf } from "../../../src/engine/fwa/analyze.js";
import { FWA_DETECTORS } from "../../../src/engine/fwa/registry.js";
import { generateClaims } from "../../../synthetic/index.js";
import { viewOf } from "./fixtures.js";

const claims = [...generateClaims({ claims: 6_000, seed: 11, inject: { rate: 0.2 } })];
const options = { flagThreshold: 0.5 };

describe("a detector's report replayed in its place", () => {
  const inPlace = analyzeBatch(viewOf(claims), FWA_DETECTORS, options);
  const view = viewOf(claims);
  const reports = FWA_DETECTORS.map((detector) => reportOf(view, detector));

  it("settles the batch as the detectors run in place, reasons in the registry's order", () => {
    const found = (name: string) => reports.find((report) => report.name === name)?.findings.length ?? 0;
    for (const name of ["exact-duplicate", "price-outlier", "quantity-outlier", "provider-profile"])
      assert.ok(found(name) > 0, `${name} finds something in the batch`);
    assert.ok(inPlace.summary.rejected > 0 && inPlace.summary.flagged > 0);
    assert.deepEqual(analyzeBatch(view, reports, options), inPlace);
  });

  it("settles it the same from reports cloned as a thread hands them over, some in place", () => {
    const cloned: DetectorReport[] = structuredClone(reports);
    const mixed = FWA_DETECTORS.map((detector, k) =>
      k % 2 === 0 ? (cloned[k] as DetectorReport) : detector,
    );
    const decisions = analyzeBatch(viewOf(claims), mixed, options);
    assert.deepEqual(decisions, inPlace);
    // a claim's finding stays one object, shared by the claim's items
    const replayed = cloned.filter((_, k) => k % 2 === 0);
    const report = replayed.find((r) => r.calls.includes(1));
    assert.ok(report !== undefined, "a replayed detector tells a claim's finding");
    const k = report.calls.indexOf(1);
    const finding = report.findings[report.calls.subarray(0, k).filter((call) => call <= 1).length];
    const claim = report.indexes[k] as number;
    const [first, end] = [view.firstItem[claim] as number, view.firstItem[claim + 1] as number];
    assert.ok(end - first >= 2, "the claim has items to share it");
    for (let item = first; item < end; item++)
      assert.ok(
        decisions.itemFindings.get(item)?.includes(finding as never),
        `item ${item} has the one object`,
      );
  });

  it("checks a replayed report's indexes as a detector's, and its entity kinds", () => {
    const report = reportOf(view, {
      name: "out of range",
      run: (batch, sink) =>
        sink.item(batch.itemCount, inPlace.itemFindings.values().next().value?.[0] as never),
    });
    assert.throws(() => analyzeBatch(view, [report], options), /out of range: item index/);
    assert.throws(
      () => reportOf(view, { name: "odd", run: (_batch, sink) => sink.entity("clinic" as never, 0, 1) }),
      /unknown entity kind clinic/,
    );
  });
});
