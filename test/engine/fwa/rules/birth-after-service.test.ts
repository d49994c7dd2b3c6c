import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { birthAfterServiceRule } from "../../../../src/engine/fwa/rules/birth-after-service.js";
import type { Finding } from "../../../../src/engine/fwa/types.js";
import { claim } from "../fixtures.js";
import { isRule, run } from "./fixtures.js";

describe("fwa rule: birth after service", () => {
  it("birth after service: NDC076 on the claim", () => {
    const hits = run(birthAfterServiceRule, [claim({ member_dob: "2026-03-11T00:00:00.000Z" })]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 0",
          code: "NDC076",
          cause: "member date of birth 2026-03-11 is after the claim date 2026-03-10",
        },
      ],
    );
    isRule(hits[0]?.finding as Finding, false);
  });
});
