import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reportOf } from "../../../src/engine/fwa/analyze.js";
import { createColumnarBuilder } from "../../../src/engine/fwa/columns/columnar.js";
import { FWA_DETECTORS } from "../../../src/engine/fwa/registry.js";
import { reportsFromThread } from "../../../src/modules/claims-batch/detector-runs.js";
import { batchClaim } from "./fixtures.js";

/** 300 claims, every 30th sent again under another id (exact duplicates), in shared memory */
function sharedView() {
  const builder = createColumnarBuilder({ claims: 300, items: 600, shared: true });
  for (let n = 0; n < 300; n++)
    builder.add(
      (n % 30 === 29 ? { ...batchClaim(n - 1), claim_id: `C-${n}-AGAIN` } : batchClaim(n)) as never,
    );
  return builder.finish();
}

describe("the detectors' thread", () => {
  it("reads the columns in shared memory and reports what the detectors report here", async () => {
    const view = sharedView();
    assert.ok(view.serviceCode.buffer instanceof SharedArrayBuffer);
    assert.ok(!(view.claimIds.bytes.buffer instanceof SharedArrayBuffer), "ids the results take stay apart");
    const names = ["exact-duplicate", "price-outlier"];
    const fromThread = await reportsFromThread(view, names);
    const here = FWA_DETECTORS.filter((d) => names.includes(d.name)).map((d) => reportOf(view, d));
    assert.deepEqual(fromThread, here);
    assert.ok((fromThread[0]?.findings.length ?? 0) >= 20, "the duplicates are found there");
  });

  it("fails, rather than waits, when a detector fails in the thread", async () => {
    // columns that are not there: the duplicates' rule fails on its first claim
    const view = { ...sharedView(), firstItem: undefined as never };
    await assert.rejects(reportsFromThread(view, ["exact-duplicate"]), /the detectors' thread failed: .*/);
  });
});
