import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  PROVIDER_PROFILE_CODE,
  providerProfileDetector,
} from "../../../../src/engine/fwa/detectors/provider-profile.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import type { BatchClaimInput } from "../../../../src/modules/claims-batch/claim.js";
import { claim, item } from "../fixtures.js";
import { claimsWith, day, isFlag, only, run } from "./fixtures.js";

describe("fwa provider profiles", () => {
  /** 30 clinics of 20 claims each, alike but not identical; `odd` gets emergencies and longer claims */
  const clinics = (odd?: string) => {
    const claims: BatchClaimInput[] = [];
    for (let p = 0; p < 30; p += 1) {
      const provider = `P-${String(p).padStart(2, "0")}`;
      for (let k = 0; k < 20; k += 1) {
        const strange = provider === odd;
        const n = strange ? 7 : 2 + ((p + k) % 3);
        claims.push(
          claim({
            claim_id: `${provider}-${k}`,
            member_id: `M-${p}-${k % (8 + (p % 4))}`,
            provider_id: provider,
            claim_date: day(k),
            is_emergency: strange && k % 5 !== 0,
            primary_diagnosis_code: ["E11.9", "I10", "J06.9", "K21.9", "M54.5"][(k + p) % 5] as string,
            claim_items: Array.from({ length: n }, (_, i) =>
              item({
                service_code: `S-${i}`,
                claimed_amount: 100 * (1 + i) * (1 + ((p * 7 + k + i) % 5) / 100),
              }),
            ),
          }),
        );
      }
    }
    return claims;
  };

  it("alike providers: entity scores near 0 and no finding", () => {
    const result = run(providerProfileDetector, clinics());
    assert.equal(result.providers.size, 30);
    assert.ok(
      [...result.providers.values()].every((s) => s < 0.05),
      `${[...result.providers.values()]}`,
    );
    assert.deepEqual(only(result), []);
  });

  it("an odd provider: a high entity score, every item flagged, the standing-out features named", () => {
    const result = run(providerProfileDetector, clinics("P-07"));
    const scores = [...result.providers].sort((a, b) => b[1] - a[1]);
    assert.equal(scores[0]?.[0], "P-07");
    assert.ok((scores[0]?.[1] as number) > 0.9);
    assert.ok((scores[1]?.[1] as number) < 0.05);
    assert.equal(claimsWith(result, PROVIDER_PROFILE_CODE).length, 20);
    const findings = only(result);
    assert.equal(findings.length, 20 * 7);
    assert.equal(new Set(findings).size, 1);
    isFlag(findings[0] as Finding);
    const cause = findings[0]?.cause as string;
    assert.match(cause, /^provider P-07 stands out among the batch's 30 clinic providers: /);
    assert.match(cause, /emergency claims 80% \(typical 0%\), robust z \d+/);
    assert.match(cause, /items per claim 7 \(typical 3\), robust z \d+/);
    assert.match(cause, /high-cost items 51% \(typical 6\.7%\), robust z \d+/);
    assert.match(
      cause,
      /isolation forest anomaly 0\.\d+ \(batch typical 0\.\d+, robust z \d+(\.\d)?\); high-cost items are lines of 404\.80 or more$/,
    );
  });

  it("is deterministic and independent of the claims' order", () => {
    const claims = clinics("P-07");
    const once = run(providerProfileDetector, claims).providers;
    assert.deepEqual(run(providerProfileDetector, claims).providers, once);
    const reversed = run(providerProfileDetector, [...claims].reverse()).providers;
    for (const [id, score] of once) assert.ok(Math.abs((reversed.get(id) as number) - score) < 1e-9, id);
  });

  it("too few providers, or providers too small: nothing", () => {
    assert.equal(run(providerProfileDetector, clinics("P-07").slice(0, 9 * 20)).providers.size, 0);
    const small = clinics().filter((c) => Number(c.claim_id.split("-")[2]) < 9);
    assert.equal(run(providerProfileDetector, small).providers.size, 0);
  });
});
