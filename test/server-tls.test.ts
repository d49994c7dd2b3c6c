import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { buildApp } from "../src/app.js";
import { idleJobQueue, openTestDb, testConfig } from "./helpers.js";

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

describe("TLS", () => {
  it("serves HTTPS only when MIZAN_TLS_CERT and MIZAN_TLS_KEY are set", {
    skip: !hasOpenssl && "no openssl",
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mizan-tls-"));
    const db = await openTestDb();
    try {
      const cert = join(dir, "cert.pem");
      const key = join(dir, "key.pem");
      const made = spawnSync("openssl", [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
      ]);
      assert.equal(made.status, 0, String(made.stderr));
      const app = await buildApp(
        testConfig({ MIZAN_TLS_CERT: cert, MIZAN_TLS_KEY: key }),
        db,
        idleJobQueue(db),
      );
      await app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = app.server.address() as { port: number };
      const status = await new Promise<number>((resolve, reject) => {
        request({ host: "127.0.0.1", port, path: "/healthz", rejectUnauthorized: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on("error", reject)
          .end();
      });
      assert.equal(status, 200);
      const plain = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => "answered",
        () => "refused",
      );
      assert.equal(plain, "refused", "plain HTTP is not served on a TLS port");
      await app.close();
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
