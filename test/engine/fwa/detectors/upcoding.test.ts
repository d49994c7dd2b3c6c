import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeBatch } from "../../../../src/engine/fwa/analyze.js";
import {
  SERVICE_FAMILIES,
  UPCODING_CODE,
  upcodingDetector,
  upcodingDetectorFor,
} from "../../../../src/engine/fwa/detectors/upcoding.js";
import { FWA_DETECTORS } from "../../../../src/engine/fwa/registry.js";
import { type Finding, statusOf } from "../../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item, viewOf } from "../fixtures.js";
import { claimsWith, isFlag, only, run } from "./fixtures.js";

describe("fwa upcoding", () => {
  /** 12 clinics of 40 office visits with levels 11/12/13/14/15 in proportions 2/8/18/10/2 */
  const MIX = [
    "99211",
    "99211",
    ...new Array(8).fill("99212"),
    ...new Array(18).fill("99213"),
    ...new Array(10).fill("99214"),
    "99215",
    "99215",
  ];
  const visits = (upcoder?: string, code = (k: number) => MIX[k] as string) => {
    const claims: BatchClaimInput[] = [];
    for (let p = 0; p < 12; p += 1) {
      const provider = `P-${p}`;
      for (let k = 0; k < 40; k += 1) {
        const level =
          provider === upcoder
            ? k % 10 === 0
              ? "99213"
              : k % 2 === 0
                ? "99214"
                : "99215"
            : code((k + p) % 40);
        claims.push(
          claim({
            claim_id: `${provider}-${k}`,
            member_id: `M-${p}-${k}`,
            provider_id: provider,
            claim_items: [item({ service_code: level }), item({ service_code: "85025" })],
          }),
        );
      }
    }
    return claims;
  };

  it("peers alike: no finding, and every provider's standing near 0", () => {
    const result = run(upcodingDetector, visits());
    assert.deepEqual(only(result), []);
    assert.equal(result.providers.size, 12);
    assert.ok([...result.providers.values()].every((s) => s < 0.01));
  });

  it("a provider billing the top levels 90% of the time: its top-level items and its score", () => {
    const result = run(upcodingDetector, visits("P-3"));
    const flagged = [...result.items.keys()].map(
      (i) => result.view.strings[result.view.serviceCode[i] as number],
    );
    assert.equal(flagged.length, 36);
    assert.ok(flagged.every((code) => code === "99214" || code === "99215"));
    assert.deepEqual(
      claimsWith(result, UPCODING_CODE).every((id) => id.startsWith("P-3-")),
      true,
    );
    const [finding] = only(result);
    isFlag(finding as Finding);
    assert.match(
      finding?.cause as string,
      /^provider P-3 billed the top levels \(99214, 99215\) of office visits, established patient in 90% of its 40 such items \(outpatient\); the batch's providers: median 30% over 12 providers \(robust z \d+(\.\d)?\)$/,
    );
    assert.ok((result.providers.get("P-3") as number) > 0.99);
    for (const [id, score] of result.providers) if (id !== "P-3") assert.ok(score < 0.01, id);
  });

  it("through analyzeBatch: the provider's score in the decisions, its top-level items flagged", () => {
    const view = viewOf(visits("P-3"));
    const decisions = analyzeBatch(view, FWA_DETECTORS, { flagThreshold: 0.5 });
    const p3 = view.strings.indexOf("P-3");
    assert.ok((decisions.providerScore.get(p3) as number) > 0.99);
    for (const [id, score] of decisions.providerScore)
      if (id !== p3) assert.ok(score < 0.05, `${view.strings[id]}`);
    let flagged = 0;
    decisions.itemStatus.forEach((code, i) => {
      if (statusOf(code) !== "flagged") return;
      flagged += 1;
      assert.equal(view.strings[view.providerId[view.itemClaim[i] as number] as number], "P-3");
    });
    assert.equal(flagged, 36);
    assert.equal(decisions.summary.FWA_cases, 36);
  });

  it("families are data: a custom family, and too few items per provider", () => {
    const widgets = upcodingDetectorFor([{ name: "widgets", levels: ["W1", "W2", "W3"], high: 1 }]);
    const claims = visits("P-3").map((c) => ({
      ...c,
      claim_items: c.claim_items.map((i) => {
        const widget = { "99215": "W3", "99214": "W2", "99213": "W1", "99212": "W1", "99211": "W1" }[
          i.service_code
        ];
        return { ...i, service_code: widget ?? i.service_code };
      }),
    }));
    const result = run(widgets, claims);
    assert.match(
      only(result)[0]?.cause as string,
      /^provider P-3 billed the top level \(W3\) of widgets in 50% of its 40/,
    );
    // 8 office visits per provider: too few to judge
    const few = run(
      upcodingDetector,
      visits("P-3").filter((c) => Number(c.claim_id.split("-")[2]) < 8),
    );
    assert.deepEqual(only(few), []);
    assert.equal(few.providers.size, 0);
    assert.ok(SERVICE_FAMILIES.every((f) => f.high >= 1 && f.high < f.levels.length));
  });
});
