/**
 * NDC034 "Services performed prior to the effective date of coverage": a claim dated before its member's
 * insurance start. A certain inconsistency in what was submitted, so it rejects every item of the claim; a
 * data error, not an FWA case.
 */
import { at } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { reject } from "../findings.js";
import { type ColumnarBatchView, type Detector, type FindingSink, NO_DATE } from "../types.js";

export const SERVICE_BEFORE_COVERAGE_CODE = "NDC034";

export const serviceBeforeCoverageRule: Detector = {
  name: "service-before-coverage",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    for (let c = 0; c < batch.claimCount; c += 1) {
      const served = at(batch.claimDate, c);
      const start = at(batch.insuranceStart, c);
      if (served === NO_DATE || start === NO_DATE || served >= start) continue;
      const cause = `claim date ${isoOfDay(served)} is before the insurance start ${isoOfDay(start)}`;
      sink.claim(c, reject(SERVICE_BEFORE_COVERAGE_CODE, "Service before insurance start", cause, false));
    }
  },
};
