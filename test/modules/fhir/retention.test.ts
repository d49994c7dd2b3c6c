import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fhirMessageRepo } from "../../../src/modules/fhir/repo.js";
import { purgeProcessedMessages } from "../../../src/modules/fhir/retention.js";
import { createTenant } from "../../../src/modules/tenants/service.js";
import type { Db } from "../../../src/platform/db/db.js";
import { openTestDb, uniqueName } from "../../helpers.js";

describe("processed FHIR messages' retention", () => {
  let db: Db;
  before(async () => {
    db = await openTestDb();
  });
  after(() => db.close());

  it("forgets answers older than 30 days and keeps the recent ones", async () => {
    const { tenant } = await createTenant(
      db,
      { tenantId: undefined, actor: "test", requestId: undefined },
      { name: uniqueName(), mode: "standard" },
    );
    const message = (id: string) => ({
      messageId: id,
      event: "eligibility-request",
      contentHash: "h",
      transactionId: null,
    });
    await fhirMessageRepo.record(db, tenant.id, message("old"), '{"resourceType":"Bundle"}');
    await fhirMessageRepo.record(db, tenant.id, message("recent"), '{"resourceType":"Bundle"}');
    await db.query(
      "UPDATE fhir_messages SET created_at = now() - interval '31 days' WHERE tenant_id = $1 AND message_id = 'old'",
      [tenant.id],
    );
    assert.ok((await purgeProcessedMessages(db, new Date())) >= 1);
    assert.equal(await fhirMessageRepo.find(db, tenant.id, "old"), undefined);
    assert.equal(
      (await fhirMessageRepo.find(db, tenant.id, "recent"))?.response,
      '{"resourceType":"Bundle"}',
    );
  });
});
