import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serviceBeforeCoverageRule } from "../../../../src/engine/fwa/rules/service-before-coverage.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import { claim } from "../fixtures.js";
import { isRule, run } from "./fixtures.js";

describe("fwa rule: service before coverage", () => {
  it("service before insurance start: NDC034 on the claim", () => {
    const hits = run(serviceBeforeCoverageRule, [
      claim(),
      claim({ claim_id: "C-2", insurance_start_date: "2026-03-11" }),
    ]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 1",
          code: "NDC034",
          cause: "claim date 2026-03-10 is before the insurance start 2026-03-11",
        },
      ],
    );
    isRule(hits[0]?.finding as Finding, false);
  });
});
