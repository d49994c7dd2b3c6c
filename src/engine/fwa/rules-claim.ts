/**
 * Rules on a claim's dates and authorization: each one is a certain inconsistency in what was submitted,
 * so it rejects (score 1). None of them is by itself evidence of fraud, waste or abuse: `fwa` is false.
 */
import { at, PRE_AUTH, textOf } from "./columnar.js";
import { isoOfDay } from "./days.js";
import { reject } from "./findings.js";
import { type ColumnarBatchView, type Detector, type FindingSink, NO_DATE } from "./types.js";

/** NDC034 "Services performed prior to the effective date of coverage": every item of the claim */
export const serviceBeforeCoverage: Detector = {
  name: "service-before-coverage",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    for (let c = 0; c < batch.claimCount; c += 1) {
      const served = at(batch.claimDate, c);
      const start = at(batch.insuranceStart, c);
      if (served === NO_DATE || start === NO_DATE || served >= start) continue;
      const cause = `claim date ${isoOfDay(served)} is before the insurance start ${isoOfDay(start)}`;
      sink.claim(c, reject("NDC034", "Service before insurance start", cause, false));
    }
  },
};

/** NDC076 "Date of birth follows the date of service": every item of the claim */
export const birthAfterService: Detector = {
  name: "birth-after-service",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    for (let c = 0; c < batch.claimCount; c += 1) {
      const born = at(batch.memberDob, c);
      const served = at(batch.claimDate, c);
      if (born === NO_DATE || served === NO_DATE || born <= served) continue;
      const cause = `member date of birth ${isoOfDay(born)} is after the claim date ${isoOfDay(served)}`;
      sink.claim(c, reject("NDC076", "Birth after service", cause, false));
    }
  },
};

/**
 * Discharge before admission, at the claim (every item) and at the item (that item). No NPHIES reason says
 * that a stay's dates are inverted: NDC037 "Calculation discrepancy" is about the amounts' arithmetic, and
 * NDC029 ("performed outside period of hospitalization") presupposes a valid stay to be outside of. An own
 * code keeps the NPHIES codes meaning what they say; the cause carries the dates. Dates compare by UTC day
 * (the view's resolution), so an inversion within one day is not seen.
 */
export const DISCHARGE_BEFORE_ADMISSION = "FWA-DATE-01";

export const dischargeBeforeAdmission: Detector = {
  name: "discharge-before-admission",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    const description = "Discharge before admission";
    for (let c = 0; c < batch.claimCount; c += 1) {
      const admitted = at(batch.admissionDate, c);
      const discharged = at(batch.dischargeDate, c);
      if (admitted !== NO_DATE && discharged !== NO_DATE && discharged < admitted) {
        const cause = `claim discharge date ${isoOfDay(discharged)} is before its admission date ${isoOfDay(admitted)}`;
        sink.claim(c, reject(DISCHARGE_BEFORE_ADMISSION, description, cause, false));
      }
      const first = at(batch.firstItem, c);
      const end = at(batch.firstItem, c + 1);
      for (let i = first; i < end; i += 1) {
        const itemAdmitted = at(batch.itemAdmission, i);
        const itemDischarged = at(batch.itemDischarge, i);
        if (itemAdmitted === NO_DATE || itemDischarged === NO_DATE || itemDischarged >= itemAdmitted)
          continue;
        const cause = `item discharge date ${isoOfDay(itemDischarged)} is before its admission date ${isoOfDay(itemAdmitted)}`;
        sink.item(i, reject(DISCHARGE_BEFORE_ADMISSION, description, cause, false));
      }
    }
  },
};

/**
 * Pre-authorization rejected: NDC001 "Prior approval is required and was not obtained". The claim shows that
 * approval was sought (so it was required) and refused (so it was not obtained): exactly NDC001. NDC068
 * ("Claim information is inconsistent with pre-certified/authorized services") is for a claim that departs
 * from an approval that exists, which a rejected one is not. Every item of the claim; the batch carries no
 * item-level authorization.
 */
export const preAuthRejected: Detector = {
  name: "pre-auth-rejected",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    for (let c = 0; c < batch.claimCount; c += 1) {
      if (at(batch.preAuthStatus, c) !== PRE_AUTH.REJECTED) continue;
      const cause = `the pre-authorization of claim ${textOf(batch, at(batch.claimId, c))} is REJECTED`;
      sink.claim(c, reject("NDC001", "Pre-authorization rejected", cause, false));
    }
  },
};
