import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sqlLiteral } from "../../../src/platform/db/sql.js";

describe("parameters as SQL literals", () => {
  it("write parameters as quoted literals the way libpq quotes them, or refuse", () => {
    assert.equal(sqlLiteral("plain"), "'plain'");
    assert.equal(sqlLiteral("O'Brien"), "'O''Brien'");
    assert.equal(sqlLiteral("back\\slash'"), "E'back\\\\slash'''");
    assert.equal(sqlLiteral(42), "'42'");
    assert.equal(sqlLiteral(-1.5), "'-1.5'");
    assert.equal(sqlLiteral(2n ** 70n), "'1180591620717411303424'");
    assert.equal(sqlLiteral(true), "'true'");
    assert.equal(sqlLiteral(null), "NULL");
    assert.equal(sqlLiteral(new Date("2025-01-02T03:04:05.000Z")), "'2025-01-02T03:04:05.000Z'");
    for (const refused of [Number.NaN, Number.POSITIVE_INFINITY, "nul\0byte", ["array"], { an: "object" }]) {
      assert.equal(sqlLiteral(refused), undefined);
    }
  });
});
