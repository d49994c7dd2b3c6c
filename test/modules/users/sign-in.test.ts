import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { verifyPassword } from "../../../src/modules/users/passwords.js";
import { signIn } from "../../../src/modules/users/sign-in.js";
import { createSignInGuards, sourceOf } from "../../../src/modules/users/sign-in-guards.js";
import { createSlots } from "../../../src/modules/users/slots.js";
import { startTestApp, type TestContext } from "../../helpers.js";
import { oldHash } from "./fixtures.js";

describe("reviewer sign-in", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp({}, { workers: 0 });
  });
  after(() => ctx.close());

  it("signs a user with an N = 2^15 hash in, and rehashes the password at N = 2^17", async () => {
    const res = await ctx.tenant.call("POST", "/user/create", { username: "veteran" });
    assert.equal(res.statusCode, 201);
    const old = oldHash("an old long password");
    await ctx.db.query("UPDATE users SET password_hash = $1 WHERE tenant_id = $2 AND username = 'veteran'", [
      old,
      ctx.tenant.id,
    ]);
    const outcome = await signIn(
      ctx.db,
      createSignInGuards(),
      {
        tenant: ctx.tenant.name,
        username: "veteran",
        password: "an old long password",
        source: "192.0.2.1",
      },
      new Date(),
    );
    assert.equal(outcome.kind, "signed-in");
    const [row] = await ctx.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE tenant_id = $1 AND username = 'veteran'",
      [ctx.tenant.id],
    );
    assert.match(row?.password_hash ?? "", /^scrypt\$131072\$8\$1\$/);
    assert.equal(await verifyPassword("an old long password", row?.password_hash ?? null), true);
  });
});

describe("sign-in guards", () => {
  it("counts a client by its address, IPv4-mapped as IPv4 and IPv6 by its /64", () => {
    assert.equal(sourceOf("203.0.113.7"), "203.0.113.7");
    assert.equal(sourceOf("::ffff:203.0.113.7"), "203.0.113.7");
    assert.equal(sourceOf("2001:db8:0:1::5"), "2001:db8:0:1::/64");
    assert.equal(sourceOf("2001:0DB8:0000:0001:ffff:1:2:3"), "2001:db8:0:1::/64");
    assert.equal(sourceOf("fe80::1%eth0"), "fe80:0:0:0::/64");
    assert.equal(sourceOf("::1"), "0:0:0:0::/64");
  });

  it("runs a bounded number of hashes, queues a few, and refuses the rest at once", async () => {
    const slots = createSlots(2, 1);
    const first = slots.acquire();
    const second = slots.acquire();
    const waiting = slots.acquire();
    assert.ok(first && second && waiting);
    assert.equal(slots.acquire(), undefined, "full: refused at once");
    let admitted = false;
    void waiting.then(() => {
      admitted = true;
    });
    (await first)();
    await waiting;
    assert.ok(admitted, "a release lets the waiting one in");
    assert.ok(slots.acquire() !== undefined, "two running again, one may wait");
    assert.equal(slots.acquire(), undefined);
  });
});
