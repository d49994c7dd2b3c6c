/**
 * Texts only ever echoed (claim ids, erp item ids), packed as UTF-8 in one byte array with their offsets:
 * ten million of them as JavaScript strings took about 400 MB of heap that the collector walked again and
 * again; packed they take their bytes and four more each, outside the heap.
 */

export interface PackedTexts {
  readonly count: number;
  /** text i is bytes[offsets[i] .. offsets[i + 1] - 1] (length count + 1) */
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** texts appended one by one or a packed run at a time; `finish` gives them without copying */
export class PackedTextsBuilder {
  private offsets: Int32Array;
  private bytes: Uint8Array;
  private count = 0;
  private length = 0;

  constructor(texts = 1024, bytesEach = 16) {
    this.offsets = new Int32Array(Math.max(16, texts + 1));
    this.bytes = new Uint8Array(Math.max(256, texts * bytesEach));
  }

  /** how many texts so far */
  get size(): number {
    return this.count;
  }

  /** appends a text; its index */
  push(text: string): number {
    // UTF-8 takes at most three bytes for each UTF-16 unit
    this.makeRoom(1, text.length * 3);
    // ASCII byte by byte: for a short id the encoder's call costs about twice the copy
    const { bytes } = this;
    let at = this.length;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) {
        at = this.length + encoder.encodeInto(text, bytes.subarray(this.length)).written;
        break;
      }
      bytes[at++] = unit;
    }
    this.length = at;
    return this.close();
  }

  /** appends texts from..to - 1 of `texts`, as bytes (nothing decoded) */
  pushRun(texts: PackedTexts, from: number, to: number): void {
    if (to <= from) return;
    const start = texts.offsets[from] as number;
    const end = texts.offsets[to] as number;
    this.makeRoom(to - from, end - start);
    this.bytes.set(texts.bytes.subarray(start, end), this.length);
    const shift = this.length - start;
    for (let i = from + 1; i <= to; i++) this.offsets[++this.count] = (texts.offsets[i] as number) + shift;
    this.length += end - start;
  }

  finish(): PackedTexts {
    return {
      count: this.count,
      offsets: this.offsets.subarray(0, this.count + 1),
      bytes: this.bytes.subarray(0, this.length),
    };
  }

  private close(): number {
    this.offsets[++this.count] = this.length;
    return this.count - 1;
  }

  private makeRoom(texts: number, bytes: number): void {
    if (this.count + texts >= this.offsets.length) {
      const grown = new Int32Array(Math.max(2 * this.offsets.length, this.count + texts + 1));
      grown.set(this.offsets);
      this.offsets = grown;
    }
    if (this.length + bytes > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.length + bytes));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
  }
}

/** the texts packed, in their order */
export function packTexts(texts: readonly string[]): PackedTexts {
  const builder = new PackedTextsBuilder(texts.length);
  for (const text of texts) builder.push(text);
  return builder.finish();
}

/** text i as its UTF-8 bytes (a view, not a copy) */
export function bytesAt(texts: PackedTexts, i: number): Uint8Array {
  return texts.bytes.subarray(texts.offsets[i] as number, texts.offsets[i + 1] as number);
}

/** text i ("" out of range) */
export function textAt(texts: PackedTexts, i: number): string {
  if (!(Number.isInteger(i) && i >= 0 && i < texts.count)) return "";
  return decoder.decode(bytesAt(texts, i));
}
