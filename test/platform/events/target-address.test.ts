import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isNonPublicAddress } from "../../../src/platform/events/target-address.js";

describe("non-public addresses", () => {
  it("knows loopback, private, link-local and mapped addresses from public ones", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
    ])
      assert.ok(isNonPublicAddress(address), address);
    for (const address of ["::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::"])
      assert.ok(isNonPublicAddress(address), address);
    for (const address of ["8.8.8.8", "212.26.1.1", "2a00:1450:4001::1", "::ffff:8.8.8.8"])
      assert.ok(!isNonPublicAddress(address), address);
  });
});
