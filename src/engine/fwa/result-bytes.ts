/**
 * A claim's result as the result pages store it: UTF-8 JSON, the very text of
 * `JSON.stringify(claimResult(...))` (results.ts), written as bytes for the pages of millions of claims.
 */
import { textOf } from "./columns/columnar.js";
import { type PackedTexts, textAt } from "./columns/texts.js";
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
 * Claims' results as UTF-8 JSON, the very text of `JSON.stringify(claimResult(...))`, written as bytes
 * where no item has a finding (most claims): ids copied from the packed columns as they are when JSON
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

  constructor(
    private readonly batch: ColumnarBatchView,
    private readonly decisions: BatchDecisions,
    private readonly context: ResultContext,
  ) {}

  /** claim `claimIndex`'s result; the bytes are valid until the next call */
  encode(claimIndex: number): Uint8Array {
    const { batch, decisions } = this;
    const [first, end] = itemRangeOf(batch, claimIndex);
    this.length = 0;
    for (let itemIndex = first; itemIndex < end; itemIndex += 1)
      if (decisions.itemFindings.has(itemIndex)) {
        this.putString(JSON.stringify(claimResult(batch, decisions, claimIndex, this.context)));
        return this.out.subarray(0, this.length);
      }
    this.put(CLAIM_OPEN);
    const idStart = this.length;
    this.putText(batch.claimIds, claimIndex);
    const idEnd = this.length;
    this.put(CLAIM_STATUS[decisions.claimStatus[claimIndex] as number] as Uint8Array);
    this.putCopy(idStart, idEnd);
    this.put(this.providerPart(batch.providerId[claimIndex] as number));
    for (let itemIndex = first; itemIndex < end; itemIndex += 1) {
      this.put(itemIndex === first ? FIRST_ITEM : NEXT_ITEM);
      const erpId = batch.itemErpId[itemIndex] ?? NO_ERP_ITEM_ID;
      if (erpId !== NO_ERP_ITEM_ID) this.putText(batch.erpItemIds, erpId);
      else {
        // the default `${claim_id}-${n}`: the claim id's JSON without its closing quote, then -n
        this.putCopy(idStart, idEnd - 1);
        this.putByte(DASH);
        this.putAscii(String(itemIndex - first + 1));
        this.putByte(QUOTE);
      }
      this.put(this.itemTail(decisions.itemStatus[itemIndex] as number, decisions.itemScore[itemIndex] ?? 0));
    }
    this.put(CLAIM_CLOSE);
    return this.out.subarray(0, this.length);
  }

  private providerPart(id: number): Uint8Array {
    let part = this.providers.get(id);
    if (part === undefined) {
      part = bytesOf(`,"provider_id":${JSON.stringify(textOf(this.batch, id))},"claim_items":[`);
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
