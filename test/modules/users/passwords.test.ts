import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hashPassword, verifyPassword } from "../../../src/modules/users/passwords.js";

describe("reviewer passwords", () => {
  it("hashes with scrypt and a salt of its own, and verifies only the right password", async () => {
    const [first, second] = await Promise.all([
      hashPassword("correct horse battery"),
      hashPassword("correct horse battery"),
    ]);
    assert.match(first, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    assert.notEqual(first, second, "a salt of its own");
    assert.equal(await verifyPassword("correct horse battery", first), true);
    assert.equal(await verifyPassword("correct horse batterY", first), false);
    assert.equal(await verifyPassword("", first), false);
  });

  it("verifies nothing against no password, or a hash it does not know", async () => {
    assert.equal(await verifyPassword("anything at all", null), false);
    assert.equal(await verifyPassword("anything at all", "md5$abc"), false);
  });
});
