/**
 * NDC076 "Date of birth follows the date of service": a member born after the claim date. A certain
 * inconsistency in what was submitted, so it rejects every item of the claim; a data error, not an FWA case.
 */
import { at } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { reject } from "../findings.js";
import { type ColumnarBatchView, type Detector, type FindingSink, NO_DATE } from "../types.js";

export const BIRTH_AFTER_SERVICE_CODE = "NDC076";

export const birthAfterServiceRule: Detector = {
  name: "birth-after-service",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    for (let c = 0; c < batch.claimCount; c += 1) {
      const born = at(batch.memberDob, c);
      const served = at(batch.claimDate, c);
      if (born === NO_DATE || served === NO_DATE || born <= served) continue;
      const cause = `member date of birth ${isoOfDay(born)} is after the claim date ${isoOfDay(served)}`;
      sink.claim(c, reject(BIRTH_AFTER_SERVICE_CODE, "Birth after service", cause, false));
    }
  },
};
