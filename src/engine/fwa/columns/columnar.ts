/**
 * A batch's claims as columns (ColumnarBatchView): the upload adds each part's claims one by one into a
 * builder of its own (encoded by columns/part.ts), and the analysis's pass one joins the parts. Columns are typed arrays that double as they fill. Identifiers and codes are interned
 * into one string table (`strings`), each kind through its own map: member ids, provider ids, ph ids,
 * diagnosis codes, service codes. Claim ids and erp item ids, one of a kind and only ever echoed, are kept
 * apart as they come (`claimIds`, `erpItemIds`): the detectors size their lookups by `strings`. Within a
 * kind, equal texts have equal indexes, so detectors compare by index; across kinds they may not (a member
 * id equal to a provider id has two indexes): compare texts there. One map per kind keeps each map small
 * (service codes: thousands, not a million entries), which makes interning about three times faster than
 * one shared map on a million items.
 * Diagnosis codes are interned normalized (no dot, upper case; E11.9 and e119 are one index), with the
 * submitted spelling remembered so each spelling is normalized once; service codes and ids as sent.
 *
 * Small-integer encodings (the view's own, fixed in types.ts, are repeated here):
 * - claimType: 0 PROFESSIONAL, 1 INSTITUTIONAL (BATCH_CLAIM_TYPES order)
 * - claimSubType: 0 IN_PATIENT, 1 OUT_PATIENT, 2 EMERGENCY (BATCH_CLAIM_SUB_TYPES order)
 * - isEmergency: 1 when `is_emergency` is true, else 0 (absent counts as not an emergency)
 * - memberGender: 0 MALE, 1 FEMALE
 * - providerType: 0 CLINIC, 1 HOSPITAL, 2 PHARMACY, 3 LABORATORY, 4 RADIOLOGY (BATCH_PROVIDER_TYPES order)
 * - preAuthStatus: 0 none, 1 APPROVED, 2 REJECTED, 3 PENDING
 * - daysSupply: 0 when absent (the field is at least 1 when sent)
 * - dates: days since 1970-01-01, NO_DATE when absent; amounts: halalas per unit, Math.round(SAR * 100)
 */

import { normalizeIcd10 } from "../../../reference/icd10.js";
import { type ColumnarBatchView, type ColumnarBuilder, NO_ERP_ITEM_ID } from "../types.js";
import {
  BATCH_CLAIM_SUB_TYPES,
  BATCH_CLAIM_TYPES,
  BATCH_PROVIDER_TYPES,
  type BatchClaimInput,
} from "./claim.js";
import { dayOfText } from "./days.js";
import { PackedTextsBuilder, packTexts, textAt } from "./texts.js";

export const GENDER = { MALE: 0, FEMALE: 1 } as const;
export const PRE_AUTH = { NONE: 0, APPROVED: 1, REJECTED: 2, PENDING: 3 } as const;

const CLAIM_TYPE = indexOf(BATCH_CLAIM_TYPES);
/** the claimSubType column's codes: CLAIM_SUB_TYPE.IN_PATIENT is 0 */
export const CLAIM_SUB_TYPE = indexOf(BATCH_CLAIM_SUB_TYPES);
const PROVIDER_TYPE = indexOf(BATCH_PROVIDER_TYPES);
const PRE_AUTH_STATUS: Readonly<Record<string, number>> = {
  APPROVED: PRE_AUTH.APPROVED,
  REJECTED: PRE_AUTH.REJECTED,
  PENDING: PRE_AUTH.PENDING,
};

function indexOf<T extends string>(values: readonly T[]): Readonly<Record<T, number>> {
  return Object.fromEntries(values.map((value, index) => [value, index])) as Record<T, number>;
}

/** a code the schema does not know cannot reach here (validated); 255 marks it should one ever do */
const code = (table: Readonly<Record<string, number>>, value: string): number => table[value] ?? 255;

/** how a builder starts */
export interface ColumnarBuilderOptions {
  /** optional sizes, when the caller knows them (the upload counts claims and items): no doubling then */
  claims?: number;
  items?: number;
  /** the columns the detectors read in shared memory, so that another thread reads them without a copy */
  shared?: boolean;
}

type Column = Int32Array | Uint8Array | Float64Array;
type ColumnType<T extends Column> = {
  new (length: number): T;
  new (buffer: SharedArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** `length` zeros, in shared memory (which another thread reads without a copy) or not */
function zerosOf<T extends Column>(type: ColumnType<T>, length: number, shared: boolean): T {
  return shared ? new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT)) : new type(length);
}

/** the column copied into a longer one, in the same kind of memory */
function grown<T extends Column>(column: T, length: number): T {
  const next = zerosOf(
    column.constructor as ColumnType<T>,
    length,
    column.buffer instanceof SharedArrayBuffer,
  );
  next.set(column as never);
  return next;
}

/** the columns `addPart` copies as they are (no strings, no offsets in them) */
const COPIED_CLAIM_COLUMNS = [
  "claimType",
  "claimSubType",
  "isEmergency",
  "claimDate",
  "admissionDate",
  "dischargeDate",
  "memberDob",
  "memberGender",
  "providerType",
  "insuranceStart",
  "preAuthStatus",
  "daysSupply",
] as const;
const COPIED_ITEM_COLUMNS = ["quantity", "unitAmount", "itemAdmission", "itemDischarge"] as const;

class Builder implements ColumnarBuilder {
  private readonly strings: string[] = [];
  private readonly claimIds: PackedTextsBuilder;
  private readonly erpItemIds: PackedTextsBuilder;
  private readonly memberIds = new Map<string, number>();
  private readonly providerIds = new Map<string, number>();
  private readonly phIds = new Map<string, number>();
  private readonly serviceCodes = new Map<string, number>();
  /** normalized diagnosis code -> index, and each submitted spelling -> the same index */
  private readonly diagnoses = new Map<string, number>();
  private readonly diagnosisSpellings = new Map<string, number>();
  private claims = 0;
  private items = 0;
  private secondaries = 0;
  private finished = false;

  // per claim (firstItem and firstSecondary hold one more)
  private firstItem: Int32Array;
  private claimType: Uint8Array;
  private claimSubType: Uint8Array;
  private isEmergency: Uint8Array;
  private claimDate: Int32Array;
  private admissionDate: Int32Array;
  private dischargeDate: Int32Array;
  private memberId: Int32Array;
  private memberDob: Int32Array;
  private memberGender: Uint8Array;
  private providerId: Int32Array;
  private providerType: Uint8Array;
  private phId: Int32Array;
  private insuranceStart: Int32Array;
  private primaryDiagnosis: Int32Array;
  private firstSecondary: Int32Array;
  private preAuthStatus: Uint8Array;
  private daysSupply: Int32Array;
  private secondaryDiagnoses: Int32Array;
  // per item
  private itemClaim: Int32Array;
  private serviceCode: Int32Array;
  private quantity: Float64Array;
  private unitAmount: Float64Array;
  private itemAdmission: Int32Array;
  private itemDischarge: Int32Array;
  private itemErpId: Int32Array;

  constructor(hint: ColumnarBuilderOptions) {
    const claims = Math.max(16, hint.claims ?? 1024);
    const items = Math.max(16, hint.items ?? claims * 4);
    const shared = hint.shared === true;
    this.firstItem = zerosOf(Int32Array, claims + 1, shared);
    this.claimType = zerosOf(Uint8Array, claims, shared);
    this.claimSubType = zerosOf(Uint8Array, claims, shared);
    this.isEmergency = zerosOf(Uint8Array, claims, shared);
    this.claimDate = zerosOf(Int32Array, claims, shared);
    this.admissionDate = zerosOf(Int32Array, claims, shared);
    this.dischargeDate = zerosOf(Int32Array, claims, shared);
    this.memberId = zerosOf(Int32Array, claims, shared);
    this.memberDob = zerosOf(Int32Array, claims, shared);
    this.memberGender = zerosOf(Uint8Array, claims, shared);
    this.providerId = zerosOf(Int32Array, claims, shared);
    this.providerType = zerosOf(Uint8Array, claims, shared);
    this.phId = zerosOf(Int32Array, claims, shared);
    this.insuranceStart = zerosOf(Int32Array, claims, shared);
    this.primaryDiagnosis = zerosOf(Int32Array, claims, shared);
    this.firstSecondary = zerosOf(Int32Array, claims + 1, shared);
    this.preAuthStatus = zerosOf(Uint8Array, claims, shared);
    this.daysSupply = zerosOf(Int32Array, claims, shared);
    this.secondaryDiagnoses = zerosOf(Int32Array, Math.max(16, claims >> 1), shared);
    this.itemClaim = zerosOf(Int32Array, items, shared);
    this.serviceCode = zerosOf(Int32Array, items, shared);
    this.quantity = zerosOf(Float64Array, items, shared);
    this.unitAmount = zerosOf(Float64Array, items, shared);
    this.itemAdmission = zerosOf(Int32Array, items, shared);
    this.itemDischarge = zerosOf(Int32Array, items, shared);
    // what only the results read stays apart: the result pages' thread takes it whole (result-writer.ts)
    this.itemErpId = new Int32Array(items);
    this.claimIds = new PackedTextsBuilder(claims);
    // most batches give few erp item ids or none (the default is derived): sized as they come
    this.erpItemIds = new PackedTextsBuilder();
  }

  private intern(ids: Map<string, number>, text: string): number {
    let id = ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(text);
      ids.set(text, id);
    }
    return id;
  }

  private diagnosis(code: string): number {
    let id = this.diagnosisSpellings.get(code);
    if (id === undefined) {
      id = this.intern(this.diagnoses, normalizeIcd10(code));
      this.diagnosisSpellings.set(code, id);
    }
    return id;
  }

  private growClaims(needed: number): void {
    let n = this.claimType.length * 2;
    while (n < needed) n *= 2;
    this.firstItem = grown(this.firstItem, n + 1);
    this.claimType = grown(this.claimType, n);
    this.claimSubType = grown(this.claimSubType, n);
    this.isEmergency = grown(this.isEmergency, n);
    this.claimDate = grown(this.claimDate, n);
    this.admissionDate = grown(this.admissionDate, n);
    this.dischargeDate = grown(this.dischargeDate, n);
    this.memberId = grown(this.memberId, n);
    this.memberDob = grown(this.memberDob, n);
    this.memberGender = grown(this.memberGender, n);
    this.providerId = grown(this.providerId, n);
    this.providerType = grown(this.providerType, n);
    this.phId = grown(this.phId, n);
    this.insuranceStart = grown(this.insuranceStart, n);
    this.primaryDiagnosis = grown(this.primaryDiagnosis, n);
    this.firstSecondary = grown(this.firstSecondary, n + 1);
    this.preAuthStatus = grown(this.preAuthStatus, n);
    this.daysSupply = grown(this.daysSupply, n);
  }

  private growItems(needed: number): void {
    let n = this.itemClaim.length * 2;
    while (n < needed) n *= 2;
    this.itemClaim = grown(this.itemClaim, n);
    this.serviceCode = grown(this.serviceCode, n);
    this.quantity = grown(this.quantity, n);
    this.unitAmount = grown(this.unitAmount, n);
    this.itemAdmission = grown(this.itemAdmission, n);
    this.itemDischarge = grown(this.itemDischarge, n);
    this.itemErpId = grown(this.itemErpId, n);
  }

  private makeRoomForSecondaries(needed: number): void {
    if (needed <= this.secondaryDiagnoses.length) return;
    let n = this.secondaryDiagnoses.length * 2;
    while (n < needed) n *= 2;
    this.secondaryDiagnoses = grown(this.secondaryDiagnoses, n);
  }

  add(claim: BatchClaimInput): void {
    if (this.finished) throw new Error("the columnar builder is finished");
    const c = this.claims;
    if (c === this.claimType.length) this.growClaims(c + 1);
    this.claimIds.push(claim.claim_id);
    this.claimType[c] = code(CLAIM_TYPE, claim.claim_type);
    this.claimSubType[c] = code(CLAIM_SUB_TYPE, claim.claim_sub_type);
    this.isEmergency[c] = claim.is_emergency === true ? 1 : 0;
    this.claimDate[c] = dayOfText(claim.claim_date);
    this.admissionDate[c] = dayOfText(claim.admission_date);
    this.dischargeDate[c] = dayOfText(claim.discharge_date);
    this.memberId[c] = this.intern(this.memberIds, claim.member_id);
    this.memberDob[c] = dayOfText(claim.member_dob);
    this.memberGender[c] = claim.member_gender === "FEMALE" ? GENDER.FEMALE : GENDER.MALE;
    this.providerId[c] = this.intern(this.providerIds, claim.provider_id);
    this.providerType[c] = code(PROVIDER_TYPE, claim.medical_provider_type);
    this.phId[c] = this.intern(this.phIds, claim.ph_id);
    this.insuranceStart[c] = dayOfText(claim.insurance_start_date);
    this.primaryDiagnosis[c] = this.diagnosis(claim.primary_diagnosis_code);
    const status = claim["pre-auth_status"];
    this.preAuthStatus[c] = status === undefined ? PRE_AUTH.NONE : code(PRE_AUTH_STATUS, status);
    this.daysSupply[c] = claim.days_supply ?? 0;

    const secondary = claim.secondary_diagnosis_codes ?? [];
    this.makeRoomForSecondaries(this.secondaries + secondary.length);
    for (const diagnosis of secondary) {
      this.secondaryDiagnoses[this.secondaries++] = this.diagnosis(diagnosis.code);
    }
    this.firstSecondary[c + 1] = this.secondaries;

    const items = claim.claim_items;
    if (this.items + items.length > this.itemClaim.length) this.growItems(this.items + items.length);
    for (const [n, item] of items.entries()) {
      const i = this.items++;
      this.itemErpId[i] =
        item.erp_item_id !== undefined && item.erp_item_id !== defaultErpItemId(claim.claim_id, n)
          ? this.erpItemIds.push(item.erp_item_id)
          : NO_ERP_ITEM_ID;
      this.itemClaim[i] = c;
      this.serviceCode[i] = this.intern(this.serviceCodes, item.service_code);
      this.quantity[i] = item.claimed_quantity;
      this.unitAmount[i] = Math.round(item.claimed_amount * 100);
      this.itemAdmission[i] = dayOfText(item.admission_date);
      this.itemDischarge[i] = dayOfText(item.discharge_date);
    }
    this.firstItem[c + 1] = this.items;
    this.claims = c + 1;
  }

  /**
   * A part's claims appended, as `add` would append the claims it was built from: its strings are
   * interned claim by claim in the order `add` interns them, so the view's indexes are the same too.
   */
  addPart(part: ColumnarBatchView): void {
    if (this.finished) throw new Error("the columnar builder is finished");
    const claimBase = this.claims;
    const itemBase = this.items;
    const secondaryBase = this.secondaries;
    if (claimBase + part.claimCount > this.claimType.length) this.growClaims(claimBase + part.claimCount);
    if (itemBase + part.itemCount > this.itemClaim.length) this.growItems(itemBase + part.itemCount);
    this.makeRoomForSecondaries(secondaryBase + part.secondaryDiagnoses.length);
    // each of the part's strings is of one kind: its index here, once interned
    const global = new Int32Array(part.strings.length).fill(-1);
    const intern = (ids: Map<string, number>, local: number): number => {
      let id = global[local] as number;
      if (id === -1) {
        id = this.intern(ids, part.strings[local] ?? "");
        global[local] = id;
      }
      return id;
    };
    this.claimIds.pushRun(part.claimIds, 0, part.claimCount);
    // the part's erp ids are in its items' order, so each run of them keeps its order here
    const erpBase = this.erpItemIds.size;
    this.erpItemIds.pushRun(part.erpItemIds, 0, part.erpItemIds.count);
    for (let c = 0; c < part.claimCount; c++) {
      const to = claimBase + c;
      this.memberId[to] = intern(this.memberIds, at(part.memberId, c));
      this.providerId[to] = intern(this.providerIds, at(part.providerId, c));
      this.phId[to] = intern(this.phIds, at(part.phId, c));
      this.primaryDiagnosis[to] = intern(this.diagnoses, at(part.primaryDiagnosis, c));
      for (let s = at(part.firstSecondary, c); s < at(part.firstSecondary, c + 1); s++)
        this.secondaryDiagnoses[secondaryBase + s] = intern(this.diagnoses, at(part.secondaryDiagnoses, s));
      this.firstSecondary[to + 1] = secondaryBase + at(part.firstSecondary, c + 1);
      for (let i = at(part.firstItem, c); i < at(part.firstItem, c + 1); i++) {
        const erp = at(part.itemErpId, i);
        this.itemErpId[itemBase + i] = erp === NO_ERP_ITEM_ID ? NO_ERP_ITEM_ID : erpBase + erp;
        this.serviceCode[itemBase + i] = intern(this.serviceCodes, at(part.serviceCode, i));
        this.itemClaim[itemBase + i] = claimBase + at(part.itemClaim, i);
      }
      this.firstItem[to + 1] = itemBase + at(part.firstItem, c + 1);
    }
    for (const name of COPIED_CLAIM_COLUMNS) this[name].set(part[name], claimBase);
    for (const name of COPIED_ITEM_COLUMNS) this[name].set(part[name], itemBase);
    this.claims = claimBase + part.claimCount;
    this.items = itemBase + part.itemCount;
    this.secondaries = secondaryBase + part.secondaryDiagnoses.length;
  }

  /** the view, once: its arrays are views of the builder's (no copy), so the builder takes no more claims */
  finish(): ColumnarBatchView {
    this.finished = true;
    // the lookups only served interning: a batch of millions of ids would keep them through the analysis
    for (const lookup of [this.memberIds, this.providerIds, this.phIds, this.serviceCodes]) lookup.clear();
    this.diagnoses.clear();
    this.diagnosisSpellings.clear();
    const claims = this.claims;
    const items = this.items;
    return {
      claimCount: claims,
      itemCount: items,
      strings: this.strings,
      firstItem: this.firstItem.subarray(0, claims + 1),
      claimIds: this.claimIds.finish(),
      claimType: this.claimType.subarray(0, claims),
      claimSubType: this.claimSubType.subarray(0, claims),
      isEmergency: this.isEmergency.subarray(0, claims),
      claimDate: this.claimDate.subarray(0, claims),
      admissionDate: this.admissionDate.subarray(0, claims),
      dischargeDate: this.dischargeDate.subarray(0, claims),
      memberId: this.memberId.subarray(0, claims),
      memberDob: this.memberDob.subarray(0, claims),
      memberGender: this.memberGender.subarray(0, claims),
      providerId: this.providerId.subarray(0, claims),
      providerType: this.providerType.subarray(0, claims),
      phId: this.phId.subarray(0, claims),
      insuranceStart: this.insuranceStart.subarray(0, claims),
      primaryDiagnosis: this.primaryDiagnosis.subarray(0, claims),
      firstSecondary: this.firstSecondary.subarray(0, claims + 1),
      secondaryDiagnoses: this.secondaryDiagnoses.subarray(0, this.secondaries),
      preAuthStatus: this.preAuthStatus.subarray(0, claims),
      daysSupply: this.daysSupply.subarray(0, claims),
      itemClaim: this.itemClaim.subarray(0, items),
      serviceCode: this.serviceCode.subarray(0, items),
      quantity: this.quantity.subarray(0, items),
      unitAmount: this.unitAmount.subarray(0, items),
      itemAdmission: this.itemAdmission.subarray(0, items),
      itemDischarge: this.itemDischarge.subarray(0, items),
      itemErpId: this.itemErpId.subarray(0, items),
      erpItemIds: this.erpItemIds.finish(),
    };
  }
}

/** the erp_item_id of a claim's item `n` (0-based) that gives none */
export const defaultErpItemId = (claimId: string, n: number): string => `${claimId}-${n + 1}`;

/** pass one's builder; `hint` sizes the columns up front when the counts are known */
export function createColumnarBuilder(hint: ColumnarBuilderOptions = {}): ColumnarBuilder {
  return new Builder(hint);
}

/**
 * The columns the rankings and the provider features read, as a new view: without what only the results echo
 * (claim ids, erp item ids) nor what only the detectors read (the items' codes and dates, a claim's type,
 * emergency, gender, policy holder, insurance start, prior authorization and days of supply), some 280 MB
 * at ten million items that the rankings' phase no longer holds. A new view: the groupings computed for the
 * first (stats/batch.ts) are not carried over.
 */
export function rankingColumns(view: ColumnarBatchView): ColumnarBatchView {
  const none = packTexts([]);
  const noIndexes = new Int32Array(0);
  const noBytes = new Uint8Array(0);
  return {
    ...view,
    claimIds: none,
    erpItemIds: none,
    itemErpId: noIndexes,
    serviceCode: noIndexes,
    itemAdmission: noIndexes,
    itemDischarge: noIndexes,
    phId: noIndexes,
    insuranceStart: noIndexes,
    daysSupply: noIndexes,
    claimType: noBytes,
    isEmergency: noBytes,
    memberGender: noBytes,
    preAuthStatus: noBytes,
  };
}

/** a claim's claim_id */
export const claimIdOf = (batch: ColumnarBatchView, claim: number): string => textAt(batch.claimIds, claim);

/** the text of an interned index */
export const textOf = (batch: ColumnarBatchView, id: number): string => batch.strings[id] ?? "";

/** a column's value at an index the detector knows is in range */
export const at = (column: Int32Array | Uint8Array | Float64Array, index: number): number =>
  column[index] as number;
