import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../src/config.js";

describe("configuration", () => {
  it("has the defaults of docs/operator-contract.md section 2", () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, "0.0.0.0");
    assert.equal(config.databaseUrl, undefined);
    assert.match(config.dataDir, /\/data$/);
    assert.deepEqual(config.bootstrap, {
      tenant: "demo",
      mode: "standard",
      apiKey: undefined,
      clientId: undefined,
      clientSecret: undefined,
    });
    assert.equal(config.adminToken, undefined);
    assert.equal(config.workers, 1);
    assert.equal(config.publicUrl, "http://localhost:8080");
    assert.deepEqual(config.webhooks, {
      allowPrivate: [],
      timeoutMs: 10_000,
      firstRetryMs: 5_000,
      retryWindowSeconds: 86_400,
      retentionDays: 30,
    });
    assert.equal(config.tls, undefined);
    assert.deepEqual(
      { ...config.batches, spoolDir: config.batches.spoolDir.endsWith("/data/spool") },
      {
        maxUploadBytes: 1024 ** 3,
        maxJsonBytes: 4 * 1024 ** 3,
        maxInflateRatio: 100,
        maxClaimBytes: 1024 ** 2,
        checkThreads: Math.min(availableParallelism(), 8),
        resultsThreadClaims: 20_000,
        detectorsThreadClaims: 20_000,
        resultsDays: 7,
        spool: "file",
        spoolDir: true,
      },
    );
    assert.equal(config.rateLimit, 120_000);
    assert.equal(config.logLevel, "info");
  });

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "9000",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgres://u@db/x",
      MIZAN_TENANT: "acme-tpa",
      MIZAN_MODE: "lightweight",
      MIZAN_API_KEY: "k".repeat(20),
      MIZAN_CLIENT_ID: "client",
      MIZAN_CLIENT_SECRET: "s".repeat(20),
      MIZAN_WORKERS: "0",
      MIZAN_PUBLIC_URL: "https://mizan.example.sa/",
      MIZAN_WEBHOOK_ALLOW_PRIVATE: "10.0.0.0/8, fd00::/8,192.168.1.5",
      MIZAN_WEBHOOK_TIMEOUT_MS: "2000",
      MIZAN_WEBHOOK_RETRY_FIRST_MS: "250",
      MIZAN_WEBHOOK_RETRY_WINDOW_S: "3600",
      MIZAN_EVENT_RETENTION_DAYS: "7",
      MIZAN_RATE_LIMIT: "0",
      MIZAN_BATCH_MAX_INFLATE_RATIO: "40",
      MIZAN_BATCH_MAX_CLAIM_BYTES: "2097152",
      MIZAN_BATCH_SPOOL: "database",
      MIZAN_METRICS: "0",
      MIZAN_JOBS_SCHEMA: "jobs_tpa_2",
      LOG_LEVEL: "warn",
    });
    assert.equal(config.port, 9000);
    assert.equal(config.bootstrap.mode, "lightweight");
    assert.equal(config.workers, 0);
    assert.equal(config.publicUrl, "https://mizan.example.sa");
    assert.deepEqual(config.webhooks, {
      allowPrivate: ["10.0.0.0/8", "fd00::/8", "192.168.1.5/32"],
      timeoutMs: 2_000,
      firstRetryMs: 250,
      retryWindowSeconds: 3_600,
      retentionDays: 7,
    });
    assert.equal(config.rateLimit, 0);
    assert.equal(config.batches.maxInflateRatio, 40);
    assert.equal(config.batches.maxClaimBytes, 2 * 1024 ** 2);
    assert.equal(config.batches.spool, "database");
    assert.equal(config.metrics, false);
    assert.equal(config.jobsSchema, "jobs_tpa_2");
  });

  it("reports every problem at once, naming the variable", () => {
    try {
      loadConfig({
        PORT: "eighty",
        DATABASE_URL: "mysql://x",
        MIZAN_TENANT: "Bad Name",
        MIZAN_MODE: "turbo",
        MIZAN_CLIENT_ID: "only-id",
        MIZAN_TLS_CERT: "/nonexistent.pem",
        LOG_LEVEL: "loud",
        MIZAN_API_KEY: "short",
        MIZAN_BATCH_SPOOL: "s3",
      });
      assert.fail("should have thrown");
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const text = error.message;
      for (const name of [
        "PORT",
        "DATABASE_URL",
        "MIZAN_TENANT",
        "MIZAN_MODE",
        "MIZAN_CLIENT_ID and MIZAN_CLIENT_SECRET",
        "MIZAN_TLS_CERT and MIZAN_TLS_KEY",
        "LOG_LEVEL",
        "MIZAN_API_KEY",
        "MIZAN_BATCH_SPOOL must be one of file, database",
      ]) {
        assert.ok(text.includes(name), `${name} is named in:\n${text}`);
      }
      assert.equal(error.problems.length, 9);
    }
  });

  it("reads the proxies whose forwarded address is believed, and none by default", () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.deepEqual(loadConfig({ MIZAN_TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).trustProxy, [
      "10.0.0.0/8",
      "127.0.0.1",
    ]);
    assert.throws(
      () => loadConfig({ MIZAN_TRUST_PROXY: "everyone" }),
      (error: unknown) =>
        error instanceof ConfigError && error.problems[0]?.startsWith("MIZAN_TRUST_PROXY") === true,
    );
  });

  it("reads the allowed webhook ranges, * as every address, and refuses what is not a range", () => {
    assert.deepEqual(loadConfig({ MIZAN_WEBHOOK_ALLOW_PRIVATE: "*" }).webhooks.allowPrivate, [
      "0.0.0.0/0",
      "::/0",
    ]);
    for (const bad of ["10.0.0.0/33", "localhost", "10.0.0.0/8/1", "fd00::/129", "10.0.0.0/x"]) {
      assert.throws(
        () => loadConfig({ MIZAN_WEBHOOK_ALLOW_PRIVATE: `127.0.0.0/8,${bad}` }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.length === 1 &&
          error.problems[0]?.startsWith("MIZAN_WEBHOOK_ALLOW_PRIVATE") === true &&
          error.problems[0]?.includes(bad) === true,
        bad,
      );
    }
    // the removed opt-in: its "0" asked for what now takes MIZAN_WEBHOOK_ALLOW_PRIVATE
    assert.throws(
      () => loadConfig({ MIZAN_WEBHOOK_DENY_PRIVATE: "0" }),
      /MIZAN_WEBHOOK_DENY_PRIVATE was removed/,
    );
  });
});
