/**
 * The batch analysis contract (docs/architecture.md section 5). A batch is analysed alone: pass one builds columnar
 * arrays from its claims (ColumnarBatch), pass two runs the detectors over them and settles every item:
 * status, score and reasons. Pure: no I/O, no clock (the analysis time is an argument).
 */
import type { BatchClaimInput } from "./columns/claim.js";
import type { PackedTexts } from "./columns/texts.js";

export type ItemStatus = "approved" | "flagged" | "rejected";

/** the statuses by their code in BatchDecisions: 0 approved, 1 flagged, 2 rejected (the worse, the higher) */
export const ITEM_STATUSES: readonly ItemStatus[] = ["approved", "flagged", "rejected"];

/** the status a code of BatchDecisions stands for */
export const statusOf = (code: number | undefined): ItemStatus => ITEM_STATUSES[code ?? 0] ?? "approved";

/** what a detector found about one item; shown in the results as a reason */
export interface Finding {
  /** stable code: an NPHIES adjudication reason where one fits (NDC034), else the detector's own (FWA-…) */
  code: string;
  /** the kind of finding, short: "Service before insurance start" */
  description: string;
  /** this item's figures: "claim date 2026-01-03 is before the insurance start 2026-02-01" */
  cause: string;
  /** REJECT: the item is rejected; FLAG: it is flagged for review */
  typeDecision: "REJECT" | "FLAG";
  /** rules: a certain inconsistency; ai: a statistical or learned detector */
  source: "rules" | "ai";
  /** how strongly this finding speaks for fraud, waste or abuse, 0..1 (a REJECT rule: 1) */
  score: number;
  /** true for the detectors whose findings count as FWA cases in the summary */
  fwa: boolean;
  /**
   * true for supporting evidence (a long stay, an outlying price: common on real claims, weak alone): it
   * adds to its item's score, but flags the item only beside a finding that is not supporting
   */
  supporting?: boolean;
}

/** where detectors put what they find */
export interface FindingSink {
  /** a finding about one item (global item index) */
  item(itemIndex: number, finding: Finding): void;
  /** a finding about every item of a claim */
  claim(claimIndex: number, finding: Finding): void;
  /**
   * how anomalous a provider or a member is as a whole, 0..1 (by its interned id), for provider- and
   * member-level results; the detector still reports item findings for the items it concerns
   */
  entity(kind: "provider" | "member", id: number, score: number): void;
}

/**
 * A detector looks at the whole batch at once (columnar arrays) and reports findings. Rule detectors
 * come with the batch service; statistical and unsupervised ones plug in the same way.
 */
export interface Detector {
  name: string;
  run(batch: ColumnarBatchView, sink: FindingSink): void;
}

/**
 * The batch in columns: claims and items by index, codes and ids interned as integers (the string is in
 * `strings`). Dates are whole days since 1970-01-01 (UTC); NO_DATE where absent. Amounts are halalas.
 */
export interface ColumnarBatchView {
  readonly claimCount: number;
  readonly itemCount: number;
  readonly strings: readonly string[];
  // per claim
  /** items of claim c are firstItem[c] .. firstItem[c + 1] - 1 (length claimCount + 1) */
  readonly firstItem: Int32Array;
  /** each claim's claim_id, by claim index: echoed and named in reasons, never compared (not interned) */
  readonly claimIds: PackedTexts;
  readonly claimType: Uint8Array;
  readonly claimSubType: Uint8Array;
  readonly isEmergency: Uint8Array;
  readonly claimDate: Int32Array;
  readonly admissionDate: Int32Array;
  readonly dischargeDate: Int32Array;
  readonly memberId: Int32Array;
  readonly memberDob: Int32Array;
  /** 0 male, 1 female */
  readonly memberGender: Uint8Array;
  readonly providerId: Int32Array;
  readonly providerType: Uint8Array;
  readonly phId: Int32Array;
  readonly insuranceStart: Int32Array;
  readonly primaryDiagnosis: Int32Array;
  /** secondary diagnoses of claim c: secondaryDiagnoses[firstSecondary[c] .. firstSecondary[c + 1] - 1] */
  readonly firstSecondary: Int32Array;
  readonly secondaryDiagnoses: Int32Array;
  /** 0 none, 1 APPROVED, 2 REJECTED, 3 PENDING */
  readonly preAuthStatus: Uint8Array;
  readonly daysSupply: Int32Array;
  // per item
  readonly itemClaim: Int32Array;
  readonly serviceCode: Int32Array;
  readonly quantity: Float64Array;
  readonly unitAmount: Float64Array;
  readonly itemAdmission: Int32Array;
  readonly itemDischarge: Int32Array;
  /**
   * an item's erp_item_id (its index in `erpItemIds`) where it is not the default `${claim_id}-${n}` (n its
   * 1-based place), else NO_ERP_ITEM_ID: the results echo it without reading the claims again
   */
  readonly itemErpId: Int32Array;
  /** the erp_item_ids itemErpId points to, apart from `strings` (which size the detectors' lookups) */
  readonly erpItemIds: PackedTexts;
}

export const NO_DATE = -2_147_483_648;

/** itemErpId of an item whose erp_item_id is the default */
export const NO_ERP_ITEM_ID = -1;

/** the settled analysis: by item index, with claim statuses and the summary */
export interface BatchDecisions {
  /** by item, a code of ITEM_STATUSES: a byte each, not a reference the collector walks, at ten million items */
  itemStatus: Uint8Array;
  /** 0..1 */
  itemScore: Float32Array;
  /** findings of items that have any */
  itemFindings: Map<number, Finding[]>;
  /** by claim, a code of ITEM_STATUSES: its worst item's */
  claimStatus: Uint8Array;
  summary: { approved: number; flagged: number; rejected: number; FWA_cases: number };
  /** entity scores the detectors reported (the highest per entity), by interned provider or member id */
  providerScore: Map<number, number>;
  memberScore: Map<number, number>;
}

/** the builder pass one uses: claims are added as they are read, then the view is taken once */
export interface ColumnarBuilder {
  add(claim: BatchClaimInput): void;
  /** another builder's view (one part of the batch, as encoded in columns/part.ts), appended */
  addPart(part: ColumnarBatchView): void;
  finish(): ColumnarBatchView;
}
