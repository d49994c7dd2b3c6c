import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hashPassword, needsRehash, verifyPassword } from "../../../src/modules/users/passwords.js";
import { oldHash } from "./fixtures.js";

describe("reviewer passwords", () => {
  it("hashes with scrypt at N = 2^17, r = 8, p = 1 and a salt of its own, and verifies only the right password", async () => {
    const [first, second] = await Promise.all([
      hashPassword("correct horse battery"),
      hashPassword("correct horse battery"),
    ]);
    assert.match(first, /^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    assert.notEqual(first, second, "a salt of its own");
    assert.equal(needsRehash(first), false);
    assert.equal(await verifyPassword("correct horse battery", first), true);
  });

  it("still verifies a hash made at N = 2^15, which asks to be rehashed", async () => {
    const old = oldHash("correct horse battery");
    assert.equal(await verifyPassword("correct horse battery", old), true);
    assert.equal(await verifyPassword("correct horse batterY", old), false);
    assert.equal(await verifyPassword("", old), false);
    assert.equal(needsRehash(old), true);
  });

  it("verifies nothing against no password, a hash it does not know, or an absurd cost", async () => {
    assert.equal(await verifyPassword("anything at all", null), false);
    assert.equal(await verifyPassword("anything at all", "md5$abc"), false);
    const huge = oldHash("x").replace("$32768$", `$${2 ** 24}$`);
    assert.equal(await verifyPassword("x", huge), false, "never asks for gigabytes");
    assert.equal(needsRehash("md5$abc"), true);
  });
});
