/** Writes the ground truth of the injected patterns, one record at a time (injector.ts holds the rules). */
import type { BatchClaimInput } from "../../src/modules/claims-batch/claim.js";
import type { FwaPattern, TruthRecord, TruthRole, TruthSink } from "../types.js";

export class TruthWriter {
  constructor(private readonly sink: TruthSink) {}
  item(claim: BatchClaimInput, index: number, pattern: FwaPattern, detail?: string): void {
    const record: TruthRecord = { level: "item", claim_id: claim.claim_id, item_index: index, pattern };
    this.sink(detail === undefined ? record : { ...record, detail });
  }
  /** every item of the claim */
  items(claim: BatchClaimInput, pattern: FwaPattern, detail?: string): void {
    for (let k = 0; k < claim.claim_items.length; k += 1) this.item(claim, k, pattern, detail);
  }
  claim(claim: BatchClaimInput, pattern: FwaPattern, role: TruthRole): void {
    this.sink({ level: "claim", claim_id: claim.claim_id, pattern, role });
  }
  provider(id: string, pattern: FwaPattern, detail?: string): void {
    this.sink({ level: "provider", provider_id: id, pattern, ...(detail === undefined ? {} : { detail }) });
  }
  member(id: string, pattern: FwaPattern, detail?: string): void {
    this.sink({ level: "member", member_id: id, pattern, ...(detail === undefined ? {} : { detail }) });
  }
}
