import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PackedTextsBuilder, packTexts, textAt } from "../../../../src/engine/fwa/columns/texts.js";
import { textsOf } from "../fixtures.js";

describe("fwa packed texts", () => {
  it("give back each text as pushed: ASCII, Arabic, empty, and more than they were sized for", () => {
    const texts = [
      "C-1",
      "",
      "مطالبة-٧",
      "ERP 10000001",
      "é",
      ...Array.from({ length: 3000 }, (_, i) => `X-${i}`),
    ];
    const builder = new PackedTextsBuilder(1, 1);
    const indexes = texts.map((text) => builder.push(text));
    assert.deepEqual(
      indexes,
      texts.map((_, i) => i),
    );
    assert.equal(builder.size, texts.length);
    const packed = builder.finish();
    assert.deepEqual(textsOf(packed), texts);
    assert.equal(packed.bytes.length, Buffer.byteLength(texts.join("")), "UTF-8, nothing between texts");
  });

  it("append runs of another packing byte for byte, after texts of their own", () => {
    const source = packTexts(["a", "بب", "ccc", "dddd"]);
    const builder = new PackedTextsBuilder(1, 1);
    builder.push("first");
    builder.pushRun(source, 1, 3);
    builder.pushRun(source, 2, 2);
    builder.pushRun(source, 0, 4);
    assert.deepEqual(textsOf(builder.finish()), ["first", "بب", "ccc", "a", "بب", "ccc", "dddd"]);
  });

  it("answer an index out of range with an empty text", () => {
    const packed = packTexts(["only"]);
    assert.equal(textAt(packed, 1), "");
    assert.equal(textAt(packed, -1), "");
    assert.equal(textAt(packed, 0.5), "");
  });
});
