import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { setPasswordCostForTests } from "../../../src/modules/users/passwords.js";
import { startTestApp, type TenantClient, type TestContext, uniqueName } from "../../helpers.js";
import { expectStatus } from "../prior-auth/fixtures.js";
import { createOutlierMember, createReviewer, getPage, heldRequest, PASSWORD, signIn } from "./fixtures.js";

// a hash slow enough that a burst's other attempts are all counted while one is being checked (as in
// production, where one costs 100 ms or more)
setPasswordCostForTests({ N: 2 ** 14, r: 8, p: 1 });

const WRONG = "not the password at all";

describe("reviewer console: sign-in under attack", () => {
  let ctx: TestContext;
  let tenant: TenantClient;
  before(async () => {
    ctx = await startTestApp();
    tenant = await ctx.newTenant("lightweight");
  });
  after(() => ctx.close());

  /** a sign-in form posted from `source` */
  const attempt = (
    source: string,
    username: string,
    password: string,
    options: { tenant?: string; headers?: Record<string, string> } = {},
  ) =>
    ctx.app.inject({
      method: "POST",
      url: `/${options.tenant ?? tenant.name}/console/sign-in`,
      remoteAddress: source,
      headers: { "content-type": "application/x-www-form-urlencoded", ...options.headers },
      payload: new URLSearchParams({ username, password }).toString(),
    });

  const signedIn = (res: LightMyRequestResponse) =>
    res.statusCode === 303 && /^mizan_console=[\w-]+/.test(String(res.headers["set-cookie"]));

  function throttled(res: LightMyRequestResponse) {
    assert.equal(res.statusCode, 429, res.body);
    assert.ok(Number(res.headers["retry-after"]) >= 1, "Retry-After in seconds");
    assert.equal(res.headers["set-cookie"], undefined);
    assert.match(String(res.headers["content-type"]), /^text\/html/);
    assert.match(res.body, /Too many sign-in attempts\. Try again in /);
    assert.match(res.body, /<input name="password" type="password"/, "the console's own page, with the form");
  }

  const lockOf = async (username: string, source: string) =>
    (
      await ctx.db.query<{ locked_until: Date | null }>(
        "SELECT locked_until FROM sign_in_attempts WHERE tenant = $1 AND username = $2 AND source = $3",
        [tenant.name, username, source],
      )
    )[0]?.locked_until ?? null;

  it("lets no password through from a burst of 30 wrong ones and the right one, and stays locked", async () => {
    await createReviewer(tenant, "burst");
    const passwords = Array.from({ length: 31 }, (_, n) => (n === 15 ? PASSWORD : `${WRONG} ${n}`));
    const answers = await Promise.all(passwords.map((password) => attempt("10.1.0.1", "burst", password)));
    assert.equal(answers.filter(signedIn).length, 0, "not signed in");
    for (const res of answers) if (res.statusCode !== 200) throttled(res);
    assert.ok(answers.filter((res) => res.statusCode === 429).length >= 25, "most never reach a hash");
    const lockedUntil = await lockOf("burst", "10.1.0.1");
    assert.ok(lockedUntil && lockedUntil.getTime() > Date.now() + 14 * 60_000, "locked for 15 minutes");
    // right after: turned away (by the source's rate as well as the lock), and the lock stands
    throttled(await attempt("10.1.0.1", "burst", PASSWORD));
    assert.equal((await lockOf("burst", "10.1.0.1"))?.getTime(), lockedUntil.getTime(), "still locked");
  });

  it("turns a flood from one source away at once, while the API and another source are answered", async () => {
    await createReviewer(tenant, "flooded");
    const started = Date.now();
    const flood = Promise.all(
      Array.from({ length: 60 }, (_, n) => attempt("10.2.0.1", `user-${n}`, `${WRONG} ${n}`)),
    );
    const timed = async <T>(work: Promise<T>) => {
      const result = await work;
      return { result, ms: Date.now() - started };
    };
    const [answers, api, other] = await Promise.all([
      flood,
      timed(tenant.call("GET", "/user/find-all")),
      timed(attempt("10.2.0.2", "flooded", PASSWORD)),
    ]);
    const turnedAway = answers.filter((res) => res.statusCode === 429);
    for (const res of turnedAway) throttled(res);
    assert.ok(turnedAway.length >= 50, `the source's rate and one check at a time (${turnedAway.length})`);
    assert.equal(answers.filter(signedIn).length, 0);
    assert.equal(api.result.statusCode, 200);
    assert.ok(signedIn(other.result), "another source signs in");
    assert.ok(api.ms < 5000 && other.ms < 5000, `answered promptly (${api.ms} ms, ${other.ms} ms)`);
    // the source stays throttled for the rest of its minute, whoever it names
    throttled(await attempt("10.2.0.1", "flooded", PASSWORD));
  });

  it("keeps a lockout to its source, and the administrator's unlock lifts it everywhere", async () => {
    await createReviewer(tenant, "target");
    for (let n = 0; n < 5; n++) assert.equal((await attempt("10.3.0.1", "target", WRONG)).statusCode, 200);
    throttled(await attempt("10.3.0.1", "target", PASSWORD));
    assert.ok(
      signedIn(await attempt("10.3.0.2", "target", PASSWORD)),
      "the reviewer, elsewhere, is not locked out",
    );
    assert.ok(signedIn(await attempt("2001:db8:1:2::9", "target", PASSWORD)));
    await expectStatus(tenant.call("PATCH", "/user/target", { unlock: true }), 200);
    assert.equal(await lockOf("target", "10.3.0.1"), null);
    assert.ok(signedIn(await attempt("10.3.0.1", "target", PASSWORD)), "unlocked");
  });

  it("counts IPv6 addresses of one /64 as one source", async () => {
    await createReviewer(tenant, "six");
    for (let n = 1; n <= 5; n++) await attempt(`2001:db8:aa:bb::${n}`, "six", WRONG);
    throttled(await attempt("2001:db8:aa:bb:ffff::1", "six", PASSWORD));
    assert.ok(signedIn(await attempt("2001:db8:aa:bc::1", "six", PASSWORD)));
  });

  it("ends sessions when the password changes, and on deactivation for good", async () => {
    await createReviewer(tenant, "changer");
    const first = await signIn(ctx, tenant, "changer");
    const queue = `/${tenant.name}/console/`;
    assert.match((await getPage(ctx, queue, first.cookie)).body, /data-action="sign-out"/);
    await expectStatus(tenant.call("PATCH", "/user/changer", { password: "a brand new password" }), 200);
    assert.match(
      (await getPage(ctx, queue, first.cookie)).body,
      /<title>Sign in/,
      "ended by the new password",
    );
    const second = await signIn(ctx, tenant, "changer", "a brand new password");
    await expectStatus(tenant.call("PATCH", "/user/changer", { name: "Renamed" }), 200);
    assert.match(
      (await getPage(ctx, queue, second.cookie)).body,
      /data-action="sign-out"/,
      "a rename ends nothing",
    );
    await expectStatus(tenant.call("PATCH", "/user/changer", { active: false }), 200);
    await expectStatus(tenant.call("PATCH", "/user/changer", { active: true }), 200);
    assert.match(
      (await getPage(ctx, queue, second.cookie)).body,
      /<title>Sign in/,
      "ended by the deactivation, not revived by the reactivation",
    );
  });

  it("answers for an unknown tenant exactly as for a known one and an unknown user", async () => {
    // a name of the same length, so the pages differ in nothing else
    const unknown = uniqueName();
    assert.equal(unknown.length, tenant.name.length);
    const same = (known: LightMyRequestResponse, other: LightMyRequestResponse) => {
      assert.equal(other.statusCode, known.statusCode);
      assert.equal(other.body.replaceAll(unknown, "T"), known.body.replaceAll(tenant.name, "T"));
      for (const header of ["content-type", "set-cookie", "cache-control", "location"])
        assert.equal(other.headers[header], known.headers[header], header);
      assert.equal(other.headers["retry-after"] === undefined, known.headers["retry-after"] === undefined);
    };
    for (const path of ["/", "/batches", "/requests/TX-1"])
      same(
        await getPage(ctx, `/${tenant.name}/console${path}`),
        await getPage(ctx, `/${unknown}/console${path}`),
      );
    for (let n = 0; n < 6; n++)
      same(
        await attempt("10.4.0.1", "nobody", WRONG),
        await attempt("10.4.0.1", "nobody", WRONG, { tenant: unknown }),
      );
  });

  it("refuses a sign-in form posted from another site", async () => {
    await createReviewer(tenant, "csrf");
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://localhost:8081" },
      { referer: "https://evil.example/login.html" },
    ];
    for (const headers of crossSite) {
      const res = await attempt("10.5.0.1", "csrf", PASSWORD, { headers });
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.equal(res.headers["set-cookie"], undefined);
    }
    // the console's own page: the host the request was sent to (light-my-request's is localhost:80)
    assert.ok(
      signedIn(await attempt("10.5.0.1", "csrf", PASSWORD, { headers: { origin: "http://localhost" } })),
    );
    const referred = await attempt("10.5.0.1", "csrf", PASSWORD, {
      headers: { referer: `http://localhost/${tenant.name}/console/` },
    });
    assert.ok(signedIn(referred));
  });

  it("shows only the notices it knows after a write, never text from the link", async () => {
    const held = await ctx.newTenant("lightweight");
    await createReviewer(held, "notices");
    await createOutlierMember(held, "Sara", "FEMALE");
    const transactionId = await heldRequest(held);
    const { cookie } = await signIn(ctx, held, "notices");
    const url = `/${held.name}/console/requests/${transactionId}`;
    for (const done of ["<script>alert(1)</script>", "Your account is suspended, call +966", "constructor"]) {
      const page = await getPage(ctx, `${url}?done=${encodeURIComponent(done)}`, cookie);
      assert.equal(page.statusCode, 200);
      assert.doesNotMatch(page.body, /role="status"/, done);
      assert.doesNotMatch(page.body, /<script>alert|suspended/);
    }
    const known = await getPage(ctx, `${url}?done=referred`, cookie);
    assert.match(known.body, /class="message" role="status">Referred</);
  });
});
