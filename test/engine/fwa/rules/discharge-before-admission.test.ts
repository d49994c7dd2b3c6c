import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DISCHARGE_BEFORE_ADMISSION_CODE,
  dischargeBeforeAdmissionRule,
} from "../../../../src/engine/fwa/rules/discharge-before-admission.js";
import { claim, item } from "../fixtures.js";
import { isRule, run } from "./fixtures.js";

describe("fwa rule: discharge before admission", () => {
  it("discharge before admission: on the claim, and on the item", () => {
    const hits = run(dischargeBeforeAdmissionRule, [
      claim({ admission_date: "2026-03-09", discharge_date: "2026-03-08" }),
      claim({
        claim_id: "C-2",
        claim_items: [
          item({ admission_date: "2026-03-05T10:00:00.000Z", discharge_date: "2026-03-06T10:00:00.000Z" }),
          item({ admission_date: "2026-03-05T10:00:00.000Z", discharge_date: "2026-03-04T23:00:00.000Z" }),
          item({ admission_date: "2026-03-05T10:00:00.000Z" }),
        ],
      }),
    ]);
    assert.deepEqual(
      hits.map(({ at, code, cause }) => ({ at, code, cause })),
      [
        {
          at: "claim 0",
          code: DISCHARGE_BEFORE_ADMISSION_CODE,
          cause: "claim discharge date 2026-03-08 is before its admission date 2026-03-09",
        },
        {
          at: "item 2",
          code: DISCHARGE_BEFORE_ADMISSION_CODE,
          cause: "item discharge date 2026-03-04 is before its admission date 2026-03-05",
        },
      ],
    );
    assert.match(DISCHARGE_BEFORE_ADMISSION_CODE, /^FWA-/);
    for (const hit of hits) isRule(hit.finding, false);
  });
});
