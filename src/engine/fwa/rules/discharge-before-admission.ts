/**
 * Discharge before admission, at the claim (every item) and at the item (that item). No NPHIES reason says
 * that a stay's dates are inverted: NDC037 "Calculation discrepancy" is about the amounts' arithmetic, and
 * NDC029 ("performed outside period of hospitalization") presupposes a valid stay to be outside of. An own
 * code keeps the NPHIES codes meaning what they say; the cause carries the dates. Dates compare by UTC day
 * (the view's resolution), so an inversion within one day is not seen. A certain inconsistency, so it
 * rejects; a data error, not an FWA case.
 */
import { at } from "../columns/columnar.js";
import { isoOfDay } from "../columns/days.js";
import { reject } from "../findings.js";
import { type ColumnarBatchView, type Detector, type FindingSink, NO_DATE } from "../types.js";

export const DISCHARGE_BEFORE_ADMISSION_CODE = "FWA-DATE-01";

export const dischargeBeforeAdmissionRule: Detector = {
  name: "discharge-before-admission",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    const description = "Discharge before admission";
    for (let c = 0; c < batch.claimCount; c += 1) {
      const admitted = at(batch.admissionDate, c);
      const discharged = at(batch.dischargeDate, c);
      if (admitted !== NO_DATE && discharged !== NO_DATE && discharged < admitted) {
        const cause = `claim discharge date ${isoOfDay(discharged)} is before its admission date ${isoOfDay(admitted)}`;
        sink.claim(c, reject(DISCHARGE_BEFORE_ADMISSION_CODE, description, cause, false));
      }
      const first = at(batch.firstItem, c);
      const end = at(batch.firstItem, c + 1);
      for (let i = first; i < end; i += 1) {
        const itemAdmitted = at(batch.itemAdmission, i);
        const itemDischarged = at(batch.itemDischarge, i);
        if (itemAdmitted === NO_DATE || itemDischarged === NO_DATE || itemDischarged >= itemAdmitted)
          continue;
        const cause = `item discharge date ${isoOfDay(itemDischarged)} is before its admission date ${isoOfDay(itemAdmitted)}`;
        sink.item(i, reject(DISCHARGE_BEFORE_ADMISSION_CODE, description, cause, false));
      }
    }
  },
};
