/**
 * A claim's result as the result pages store it: UTF-8 JSON, the very text of
 * `JSON.stringify(claimResult(...))` (results.ts), written as bytes for the pages of millions of claims.
 */
import { textOf } from "./columns/columnar.js";
import { bytesAt, type PackedTexts, packTexts, textAt } from "./columns/texts.js";
import { claimResult, itemRangeOf, type ResultContext, roundScore } from "./results.js";
import {
  type BatchDecisions,
  type ColumnarBatchView,
  ITEM_STATUSES,
  NO_ERP_ITEM_ID,
  statusOf,
} from "./types.js";

const utf8 = new TextEncoder();
const bytesOf = (text: string): Uint8Array => utf8.encode(text);
const CLAIM_OPEN = bytesOf('{"claim_id":');
/** by status code: what follows the claim id, up to the erp claim id */
const CLAIM_STATUS = ITEM_STATUSES.map((status) => bytesOf(`,"status":"${status}","erp_claim_id":`));
const FIRST_ITEM = bytesOf('{"erp_claim_item_id":');
const NEXT_ITEM = bytesOf(',{"erp_claim_item_id":');
const CLAIM_CLOSE = bytesOf("]}");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DASH = 0x2d;
/** scores are kept to 4 decimals: 10,001 of them at most */
const SCORE_STEPS = 10_000;

/** what follows an item's erp id when it has no finding: its status and score */
const itemTailOf = (status: number, score: number): Uint8Array =>
  bytesOf(`,"status":"${statusOf(status)}","ai_score":${JSON.stringify(roundScore(score))},"reasons":[]}`);

/**
 * What the results of a batch are written from: the columns they echo, the decisions' statuses and scores,
 * and the few claims with a finding already as JSON. Plain arrays and typed arrays only, so that a thread
 * can be handed it; a fraction of the batch's columns (the detectors' own are not in it).
 */
export interface ResultSource {
  readonly claimCount: number;
  /** as ColumnarBatchView's */
  readonly firstItem: Int32Array;
  readonly claimIds: PackedTexts;
  readonly providerId: Int32Array;
  readonly itemErpId: Int32Array;
  readonly erpItemIds: PackedTexts;
  /** the text of each interned provider id of the batch */
  readonly providerTexts: ReadonlyMap<number, string>;
  /** as BatchDecisions' */
  readonly itemStatus: Uint8Array;
  readonly itemScore: Float32Array;
  readonly claimStatus: Uint8Array;
  /** the claims with a finding, ascending, and their results' JSON (text k: claim claimsWithFindings[k]) */
  readonly claimsWithFindings: Int32Array;
  readonly findingResults: PackedTexts;
}

/** the result source of an analysed batch: its claims with findings encoded here, the rest left to the encoder */
export function resultSourceOf(
  batch: ColumnarBatchView,
  decisions: BatchDecisions,
  context: ResultContext,
): ResultSource {
  const withFindings = new Set<number>();
  for (const itemIndex of decisions.itemFindings.keys())
    withFindings.add(batch.itemClaim[itemIndex] as number);
  const claimsWithFindings = Int32Array.from(withFindings).sort();
  const providerTexts = new Map<number, string>();
  for (let c = 0; c < batch.claimCount; c += 1) {
    const id = batch.providerId[c] as number;
    if (!providerTexts.has(id)) providerTexts.set(id, textOf(batch, id));
  }
  return {
    claimCount: batch.claimCount,
    firstItem: batch.firstItem,
    claimIds: batch.claimIds,
    providerId: batch.providerId,
    itemErpId: batch.itemErpId,
    erpItemIds: batch.erpItemIds,
    providerTexts,
    itemStatus: decisions.itemStatus,
    itemScore: decisions.itemScore,
    claimStatus: decisions.claimStatus,
    claimsWithFindings,
    findingResults: packTexts(
      Array.from(claimsWithFindings, (c) => JSON.stringify(claimResult(batch, decisions, c, context))),
    ),
  };
}

/** the place of `value` in the ascending `values`, or -1 */
function indexIn(values: Int32Array, value: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = values[middle] as number;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * Claims' results as UTF-8 JSON, the very text of `JSON.stringify(claimResult(...))`: a claim with a
 * finding as its source encoded it, the others (most claims) written as bytes: ids copied from the packed columns as they are when JSON
 * needs no escape in them, what follows a provider's id or an item's id (status and score) encoded once
 * and kept. The result pages of a million items are text; built as strings first and encoded after, they
 * took longer than the detectors.
 */
export class ClaimResultEncoder {
  private out = new Uint8Array(64 * 1024);
  private length = 0;
  /** by interned provider id: `,"provider_id":"…","claim_items":[` */
  private readonly providers = new Map<number, Uint8Array>();
  /** by status code and score step: `,"status":"…","ai_score":…,"reasons":[]}` */
  private readonly itemTails = new Array<Uint8Array | undefined>(
    ITEM_STATUSES.length * (SCORE_STEPS + 1),
  ).fill(undefined);

  constructor(private readonly source: ResultSource) {}

  /** claim `claimIndex`'s result; the bytes are valid until the next call */
  encode(claimIndex: number): Uint8Array {
    const { source } = this;
    const [first, end] = itemRangeOf(source, claimIndex);
    this.length = 0;
    const withFinding = indexIn(source.claimsWithFindings, claimIndex);
    if (withFinding >= 0) return bytesAt(source.findingResults, withFinding);
    this.put(CLAIM_OPEN);
    const idStart = this.length;
    this.putText(source.claimIds, claimIndex);
    const idEnd = this.length;
    this.put(CLAIM_STATUS[source.claimStatus[claimIndex] as number] as Uint8Array);
    this.putCopy(idStart, idEnd);
    this.put(this.providerPart(source.providerId[claimIndex] as number));
    for (let itemIndex = first; itemIndex < end; itemIndex += 1) {
      this.put(itemIndex === first ? FIRST_ITEM : NEXT_ITEM);
      const erpId = source.itemErpId[itemIndex] ?? NO_ERP_ITEM_ID;
      if (erpId !== NO_ERP_ITEM_ID) this.putText(source.erpItemIds, erpId);
      else {
        // the default `${claim_id}-${n}`: the claim id's JSON without its closing quote, then -n
        this.putCopy(idStart, idEnd - 1);
        this.putByte(DASH);
        this.putAscii(String(itemIndex - first + 1));
        this.putByte(QUOTE);
      }
      this.put(this.itemTail(source.itemStatus[itemIndex] as number, source.itemScore[itemIndex] ?? 0));
    }
    this.put(CLAIM_CLOSE);
    return this.out.subarray(0, this.length);
  }

  private providerPart(id: number): Uint8Array {
    let part = this.providers.get(id);
    if (part === undefined) {
      const text = this.source.providerTexts.get(id) ?? "";
      part = bytesOf(`,"provider_id":${JSON.stringify(text)},"claim_items":[`);
      this.providers.set(id, part);
    }
    return part;
  }

  private itemTail(status: number, score: number): Uint8Array {
    const step = Math.round(score * SCORE_STEPS);
    if (!(step >= 0 && step <= SCORE_STEPS)) return itemTailOf(status, score);
    const key = status * (SCORE_STEPS + 1) + step;
    this.itemTails[key] ??= itemTailOf(status, score);
    return this.itemTails[key];
  }

  /** text i of `texts` as a JSON string: its bytes between quotes, unless a character needs an escape */
  private putText(texts: PackedTexts, i: number): void {
    const from = texts.offsets[i] as number;
    const to = texts.offsets[i + 1] as number;
    for (let b = from; b < to; b += 1) {
      const byte = texts.bytes[b] as number;
      if (byte < 0x20 || byte === QUOTE || byte === BACKSLASH) {
        this.putString(JSON.stringify(textAt(texts, i)));
        return;
      }
    }
    this.room(to - from + 2);
    this.out[this.length++] = QUOTE;
    this.out.set(texts.bytes.subarray(from, to), this.length);
    this.length += to - from;
    this.out[this.length++] = QUOTE;
  }

  private putCopy(from: number, to: number): void {
    this.room(to - from);
    this.out.copyWithin(this.length, from, to);
    this.length += to - from;
  }

  private put(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.out.set(bytes, this.length);
    this.length += bytes.length;
  }

  private putByte(byte: number): void {
    this.room(1);
    this.out[this.length++] = byte;
  }

  private putAscii(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i += 1) this.out[this.length++] = text.charCodeAt(i);
  }

  private putString(text: string): void {
    // UTF-8 takes at most three bytes for each UTF-16 unit
    this.room(3 * text.length);
    this.length += utf8.encodeInto(text, this.out.subarray(this.length)).written;
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.out.length) return;
    const grown = new Uint8Array(Math.max(2 * this.out.length, this.length + bytes));
    grown.set(this.out.subarray(0, this.length));
    this.out = grown;
  }
}
