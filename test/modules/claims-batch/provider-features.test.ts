import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { providerFeatureTable } from "../../../src/engine/fwa/stats/provider-features.js";
import { providerFeaturesBeside } from "../../../src/modules/claims-batch/provider-features.js";
import { claim, item, viewOf } from "../../engine/fwa/fixtures.js";

const day = (n: number) => new Date(Date.UTC(2025, 0, 1 + n)).toISOString().slice(0, 10);

/** a year of claims at nine providers: stays and visits, shared members, secondary diagnoses, amounts */
const view = viewOf(
  Array.from({ length: 600 }, (_, n) => {
    const stay = n % 3 === 0;
    return claim({
      claim_id: `C-${n}`,
      claim_type: stay ? "INSTITUTIONAL" : "PROFESSIONAL",
      claim_sub_type: stay ? "IN_PATIENT" : "OUT_PATIENT",
      claim_date: day((n * 7) % 365),
      ...(stay
        ? { admission_date: day((n * 7) % 365), discharge_date: day(((n * 7) % 365) + (n % 11)) }
        : {}),
      member_id: `M-${n % 97}`,
      member_dob: `19${50 + (n % 40)}-0${1 + (n % 9)}-15T00:00:00.000Z`,
      provider_id: `P-${n % 9}`,
      primary_diagnosis_code: ["I21.0", "E11.9", "J06.9", "K35.80", "S72.001A"][n % 5] as string,
      secondary_diagnosis_codes: Array.from({ length: n % 4 }, (_, k) => ({
        type: "secondary" as const,
        code: ["E78.5", "I10", "N18.3"][k] as string,
        name: "secondary",
      })),
      claim_items: Array.from({ length: 1 + (n % 3) }, (_, k) =>
        item({ claimed_amount: 100 + ((n * 37 + k * 11) % 900), claimed_quantity: 1 + (k % 2) }),
      ),
    });
  }),
);

describe("the providers' feature table beside the detectors", () => {
  it("is, from its thread, the table the analysis's thread computes", async () => {
    const here = providerFeatureTable(view);
    const beside = providerFeaturesBeside(view);
    const fromThread = await beside.table;
    assert.equal(here.providers.length, 9);
    assert.ok(here.rows.every((row) => row.every(Number.isFinite)));
    assert.deepEqual(fromThread, here);
  });

  it("moves copies to its thread: the batch's own columns stay whole", async () => {
    const members = view.memberId.slice();
    await providerFeaturesBeside(view).table;
    assert.equal(view.memberId.length, view.claimCount);
    assert.deepEqual(view.memberId, members);
  });

  it("stopped before it answers, fails its table without an unhandled rejection", async () => {
    const beside = providerFeaturesBeside(view);
    beside.stop();
    await assert.rejects(beside.table, /provider features' thread stopped/);
  });
});
