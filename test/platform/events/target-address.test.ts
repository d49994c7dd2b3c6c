import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isNonPublicAddress, isPermittedAddress } from "../../../src/platform/events/address-ranges.js";
import { postDelivery, REFUSED_ADDRESS } from "../../../src/platform/events/post.js";
import { checkTarget, type Resolve } from "../../../src/platform/events/target-address.js";
import { type Receiver, startReceiver } from "./webhook-receiver.js";

/** every form of a non-public address a target may try, as an address and as a URL's host */
const NON_PUBLIC = [
  ["0.0.0.0", "http://0.0.0.0/"],
  ["0.1.2.3", "http://0.1.2.3/"],
  ["127.0.0.1", "http://127.0.0.1/"],
  ["127.255.0.9", "http://127.255.0.9/"],
  ["10.1.2.3", "http://10.1.2.3/"],
  ["172.16.0.1", "http://172.16.0.1/"],
  ["172.31.255.254", "http://172.31.255.254/"],
  ["192.168.1.1", "http://192.168.1.1/"],
  ["169.254.169.254", "http://169.254.169.254/latest/meta-data"],
  ["100.64.0.1", "http://100.64.0.1/"],
  ["100.127.255.254", "http://100.127.255.254/"],
  ["224.0.0.1", "http://224.0.0.1/"],
  ["239.255.255.250", "http://239.255.255.250/"],
  ["255.255.255.255", "http://255.255.255.255/"],
  ["::", "http://[::]/"],
  ["::1", "http://[::1]/"],
  ["0:0:0:0:0:0:0:1", "http://[0:0:0:0:0:0:0:1]/"],
  ["fe80::1", "http://[fe80::1]/"],
  ["febf::1", "http://[febf::1]/"],
  ["fc00::1", "http://[fc00::1]/"],
  ["fd12:3456::1", "http://[fd12:3456::1]/"],
  ["ff02::1", "http://[ff02::1]/"],
  ["::ffff:127.0.0.1", "http://[::ffff:127.0.0.1]/"],
  ["::ffff:7f00:1", "http://[::ffff:7f00:1]/"],
  ["::ffff:10.0.0.1", "http://[::ffff:a00:1]/"],
  ["::ffff:0:169.254.169.254", "http://[::ffff:0:a9fe:a9fe]/"],
  ["::127.0.0.1", "http://[::127.0.0.1]/"],
  ["::8.8.8.8", "http://[::8.8.8.8]/"],
  ["64:ff9b::127.0.0.1", "http://[64:ff9b::7f00:1]/"],
  ["64:ff9b::10.0.0.1", "http://[64:ff9b::a00:1]/"],
  ["64:ff9b:1::1", "http://[64:ff9b:1::1]/"],
  ["2002:7f00:1::", "http://[2002:7f00:1::]/"],
  ["2002:c0a8:101::1", "http://[2002:c0a8:101::1]/"],
  ["2001:db8::1", "http://[2001:db8::1]/"],
  ["2001::1", "http://[2001::1]/"],
  // IPv4 spelled in decimal, octal, hex or short forms: the URL parser writes them as a.b.c.d
  ["127.0.0.1", "http://2130706433/"],
  ["127.0.0.1", "http://0x7f.1/"],
  ["127.0.0.1", "http://0177.0.0.1/"],
  ["127.0.0.1", "http://0x7f000001/"],
  ["127.0.0.1", "http://127.1/"],
  ["10.0.0.1", "http://012.0.0.01/"],
  ["169.254.169.254", "http://0xa9fea9fe/"],
] as const;

const PUBLIC = [
  "8.8.8.8",
  "212.26.1.1",
  "100.128.0.1",
  "172.32.0.1",
  "2a00:1450:4001::1",
  "2606:4700::1111",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

const DEFAULT: readonly string[] = [];

/** a resolver that answers every name with these addresses, standing in for DNS */
const resolvingTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses;

describe("webhook target addresses", () => {
  it("knows every non-public form from public addresses", () => {
    for (const [address] of NON_PUBLIC) assert.ok(isNonPublicAddress(address), address);
    for (const address of PUBLIC) assert.ok(!isNonPublicAddress(address), address);
    for (const junk of ["", "localhost", "1.2.3", "::ffff:1.2.3.4.5", "1::2::3"])
      assert.ok(isNonPublicAddress(junk), `not an address: ${junk}`);
  });

  it("permits non-public addresses only inside the operator's ranges, an embedded IPv4 by its own", () => {
    const loopback = ["127.0.0.0/8", "::1/128"];
    assert.ok(isPermittedAddress("127.0.0.1", loopback));
    assert.ok(isPermittedAddress("::1", loopback));
    assert.ok(isPermittedAddress("::ffff:127.0.0.1", loopback));
    assert.ok(!isPermittedAddress("10.0.0.1", loopback));
    assert.ok(!isPermittedAddress("fe80::1", loopback));
    assert.ok(isPermittedAddress("8.8.8.8", DEFAULT));
    for (const [address] of NON_PUBLIC) {
      assert.ok(!isPermittedAddress(address, DEFAULT), address);
      assert.ok(isPermittedAddress(address, ["0.0.0.0/0", "::/0"]), `* allows ${address}`);
    }
  });

  it("refuses every non-public form at registration, naming webhook_url", async () => {
    for (const [, url] of NON_PUBLIC) {
      await assert.rejects(
        checkTarget({ url, secret: null, secretField: "secret_token" }, DEFAULT),
        (error: { status?: number; details?: string[] }) =>
          error.status === 400 && /^webhook_url points to a loopback, private/.test(error.details?.[0] ?? ""),
        url,
      );
    }
  });

  it("refuses at registration a name that resolves to a non-public address, even beside a public one", async () => {
    for (const addresses of [["127.0.0.1"], ["::1"], ["8.8.8.8", "10.0.0.5"], ["::ffff:192.168.0.1"]]) {
      await assert.rejects(
        checkTarget(
          { url: "https://hooks.example.sa/in", secret: null, secretField: "secret" },
          DEFAULT,
          resolvingTo(...addresses),
        ),
        /webhook_url points to a loopback, private/,
        addresses.join(","),
      );
    }
    await checkTarget(
      { url: "https://hooks.example.sa/in", secret: null, secretField: "secret" },
      DEFAULT,
      resolvingTo("8.8.8.8", "2a00:1450:4001::1"),
    );
    // a name that does not resolve yet is accepted: each connection checks it again
    await checkTarget(
      { url: "https://not-yet.example.sa/in", secret: null, secretField: "secret" },
      DEFAULT,
      async () => {
        throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      },
    );
    await checkTarget({ url: "http://10.9.8.7/in", secret: null, secretField: "secret" }, ["10.0.0.0/8"]);
  });
});

describe("webhook connections", () => {
  let receiver: Receiver;
  let port: string;
  before(async () => {
    receiver = await startReceiver();
    port = new URL(receiver.url).port;
  });
  after(() => receiver.close());

  const post = (url: string, allowPrivate: readonly string[], resolve?: Resolve) =>
    postDelivery(
      new URL(url),
      "{}",
      { "content-type": "application/json" },
      {
        timeoutMs: 1_500,
        allowPrivate,
        ...(resolve === undefined ? {} : { resolve }),
      },
    );

  it("connects to no non-public address, however it is written", async () => {
    for (const [, url] of NON_PUBLIC) {
      const target = new URL(url);
      target.port = port;
      const outcome = await post(target.href, DEFAULT);
      assert.deepEqual([outcome.statusCode, outcome.error], [null, REFUSED_ADDRESS], url);
    }
    assert.equal(receiver.received.length, 0);
  });

  it("checks what a name resolves to at the connection, so a rebound name is refused", async () => {
    const before = receiver.received.length;
    // registered when it resolved to a public address; now it answers with the receiver's loopback one
    for (const addresses of [["127.0.0.1"], ["8.8.8.8", "127.0.0.1"], ["::ffff:127.0.0.1"]]) {
      const outcome = await post(`http://hooks.example.sa:${port}/h`, DEFAULT, resolvingTo(...addresses));
      assert.equal(outcome.error, REFUSED_ADDRESS, addresses.join(","));
    }
    const viaLocalhost = await post(`http://localhost:${port}/h`, DEFAULT);
    assert.equal(viaLocalhost.error, REFUSED_ADDRESS);
    assert.equal(receiver.received.length, before, "nothing reached the receiver");

    // allowed by the operator, the same name is delivered to
    const allowed = await post(
      `http://hooks.example.sa:${port}/h`,
      ["127.0.0.0/8"],
      resolvingTo("127.0.0.1"),
    );
    assert.deepEqual([allowed.statusCode, allowed.error], [200, null]);
    assert.equal(receiver.received.length, before + 1);
  });

  it("records short errors and never the answer's body", async () => {
    const noisy = await startReceiver(() => ({ status: 404, body: "<html>internal admin console</html>" }));
    try {
      const answered = await post(noisy.url, ["127.0.0.0/8"]);
      assert.deepEqual([answered.statusCode, answered.error], [404, "HTTP 404"]);
    } finally {
      await noisy.close();
    }
    const closed = await post("http://127.0.0.1:9/h", ["127.0.0.0/8"]);
    assert.deepEqual([closed.statusCode, closed.error], [null, "connection refused"]);
    const unknown = await post("http://nowhere.invalid/h", DEFAULT, async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" });
    });
    assert.equal(unknown.error, "host not found");
  });
});
