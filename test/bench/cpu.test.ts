import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { cpuSeconds, cpuSpent } from "../../bench/cpu.js";

const onLinux = existsSync("/proc/self/stat");

describe("bench CPU readings", () => {
  it("reads a process's CPU seconds from /proc, growing with its work", {
    skip: onLinux ? false : "no /proc here: the bench prints no CPU figures",
  }, () => {
    const before = cpuSeconds(process.pid);
    assert.equal(typeof before, "number");
    const until = performance.now() + 300;
    let spin = 0;
    while (performance.now() < until) spin += Math.sqrt(spin + 1);
    const spent = cpuSpent(before, cpuSeconds(process.pid));
    assert.ok(spin > 0);
    // 300 ms of a busy loop, read at /proc's 10 ms ticks
    assert.ok(spent !== undefined && spent >= 0.2 && spent < 5, `spent ${spent}`);
  });

  it("has no reading of a process that is not there, and no difference without both readings", () => {
    assert.equal(cpuSeconds(2 ** 30), undefined);
    assert.equal(cpuSeconds(undefined), undefined);
    assert.equal(cpuSpent(undefined, 3), undefined);
    assert.equal(cpuSpent(1, undefined), undefined);
    assert.equal(cpuSpent(1.5, 4), 2.5);
  });
});
