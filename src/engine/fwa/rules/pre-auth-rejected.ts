/**
 * Pre-authorization rejected: NDC001 "Prior approval is required and was not obtained". The claim shows that
 * approval was sought (so it was required) and refused (so it was not obtained): exactly NDC001. NDC068
 * ("Claim information is inconsistent with pre-certified/authorized services") is for a claim that departs
 * from an approval that exists, which a rejected one is not. Every item of the claim; the batch carries no
 * item-level authorization. It rejects; not by itself an FWA case.
 */
import { at, claimIdOf, PRE_AUTH } from "../columns/columnar.js";
import { reject } from "../findings.js";
import type { ColumnarBatchView, Detector, FindingSink } from "../types.js";

export const PRE_AUTH_REJECTED_CODE = "NDC001";

export const preAuthRejectedRule: Detector = {
  name: "pre-auth-rejected",
  run(batch: ColumnarBatchView, sink: FindingSink): void {
    for (let c = 0; c < batch.claimCount; c += 1) {
      if (at(batch.preAuthStatus, c) !== PRE_AUTH.REJECTED) continue;
      const cause = `the pre-authorization of claim ${claimIdOf(batch, c)} is REJECTED`;
      sink.claim(c, reject(PRE_AUTH_REJECTED_CODE, "Pre-authorization rejected", cause, false));
    }
  },
};
