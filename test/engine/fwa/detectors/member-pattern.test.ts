import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MEMBER_PATTERN_PROVIDERS_CODE,
  MEMBER_PATTERN_VISITS_CODE,
  memberPatternDetector,
} from "../../../../src/engine/fwa/detectors/member-pattern.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import { claim, textsOf } from "../fixtures.js";
import { claimsWith, day, isFlag, only, run } from "./fixtures.js";

describe("fwa member patterns", () => {
  /** 80 members with 1-3 claims each at one or two providers */
  const population = () =>
    Array.from({ length: 80 }, (_, m) =>
      Array.from({ length: 1 + (m % 3) }, (_, k) =>
        claim({
          claim_id: `C-${m}-${k}`,
          member_id: `M-${m}`,
          provider_id: `P-${(m + (k === 2 ? 1 : 0)) % 10}`,
          claim_date: day(k * 5),
        }),
      ),
    ).flat();

  it("a clean population: nothing", () => {
    const result = run(memberPatternDetector, population());
    assert.deepEqual(only(result), []);
    assert.equal(result.members.size, 0);
  });

  it("a member seen by seven providers for one complaint: its claims, the complaint's strongest", () => {
    const shopper = Array.from({ length: 7 }, (_, k) =>
      claim({
        claim_id: `D-${k}`,
        member_id: "M-S",
        provider_id: `Q-${k}`,
        claim_date: day(k),
        primary_diagnosis_code: "J06.9",
      }),
    );
    const other = claim({
      claim_id: "D-other",
      member_id: "M-S",
      provider_id: "Q-0",
      primary_diagnosis_code: "I10",
    });
    const result = run(memberPatternDetector, [...population(), ...shopper, other]);
    // 7 providers in all also stands out (typical 1): the member's other claim gets that, weaker
    assert.deepEqual(
      claimsWith(result, MEMBER_PATTERN_PROVIDERS_CODE),
      [...shopper.map((c) => c.claim_id), "D-other"].sort(),
    );
    const at = (id: string) => {
      const index = textsOf(result.view.claimIds).indexOf(id);
      return result.items.get(result.view.firstItem[index] as number)?.[0] as Finding;
    };
    const complaint = at("D-0");
    isFlag(complaint);
    assert.match(
      complaint.cause,
      /^member M-S: 7 providers billed this member for complaint J06 \(batch typical 1, robust z 6\); 7 providers for complaint J06 within 30 days from 2026-03-01 \(batch typical 1, robust z 6\); 7 providers in all \(typical 1, robust z 6\); 8 claims in the batch \(typical 2, robust z 4\) over 81 members$/,
    );
    assert.ok(complaint.score > 0.9);
    assert.ok(at("D-other").score < complaint.score);
    assert.equal(at("D-other").cause, complaint.cause);
    assert.equal(result.members.get("M-S"), complaint.score);
    assert.deepEqual([...result.members.keys()], ["M-S"]);
  });

  it("a member with 30 claims at one provider: every claim, as excessive visits", () => {
    const busy = Array.from({ length: 30 }, (_, k) =>
      claim({ claim_id: `V-${k}`, member_id: "M-B", provider_id: "P-1", claim_date: day(k) }),
    );
    const result = run(memberPatternDetector, [...population(), ...busy]);
    assert.deepEqual(claimsWith(result, MEMBER_PATTERN_VISITS_CODE).length, 30);
    assert.match(
      only(result)[0]?.cause as string,
      /^member M-B: 30 claims in the batch \(typical 2, robust z \d+/,
    );
    assert.ok((result.members.get("M-B") as number) > 0.99);
  });

  it("too few members to judge: nothing", () => {
    const few = Array.from({ length: 7 }, (_, k) =>
      claim({ claim_id: `D-${k}`, member_id: "M-S", provider_id: `Q-${k}`, primary_diagnosis_code: "J06.9" }),
    );
    assert.deepEqual(only(run(memberPatternDetector, [...population().slice(0, 40), ...few])), []);
  });
});
