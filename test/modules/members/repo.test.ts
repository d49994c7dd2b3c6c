import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type MemberRow, memberRepo } from "../../../src/modules/members/repo.js";
import { createTenant } from "../../../src/modules/tenants/service.js";
import type { Db } from "../../../src/platform/db/db.js";
import { openTestDb, uniqueName } from "../../helpers.js";

const member = (fields: Partial<MemberRow> & { member_id: string }): MemberRow => ({
  national_id: null,
  gender: "MALE",
  marital_status: null,
  date_of_birth: new Date("1980-01-01T00:00:00.000Z"),
  name: null,
  card: null,
  email: null,
  relation: null,
  passport: null,
  visit_visa_number: null,
  phone_number: null,
  address: null,
  nationality: null,
  ...fields,
});

describe("members found by their identifiers", () => {
  let db: Db;
  let tenantId: number;
  before(async () => {
    db = await openTestDb();
    const actor = { tenantId: undefined, actor: "test", requestId: undefined };
    tenantId = (await createTenant(db, actor, { name: uniqueName("ids"), mode: "standard" })).tenant.id;
    // inserted in this order: by national id, by member id, by passport
    for (const row of [
      member({ member_id: "A-1", national_id: "1000000001" }),
      member({ member_id: "B-2", national_id: "1000000002" }),
      member({ member_id: "C-3", passport: "P123" }),
    ])
      await memberRepo.insert(db, tenantId, row);
  });
  after(() => db.close());

  it("finds each member once, member-id matches first, then in the order they were created", async () => {
    // repeated a few times: the embedded database runs a statement prepared from its third use on
    for (let round = 0; round < 4; round++) {
      const found = await memberRepo.findByIdentifiers(db, tenantId, [
        "P123",
        "1000000001",
        "B-2",
        "1000000002",
      ]);
      assert.deepEqual(
        found.map((row) => [row.member_id, row.matched_by]),
        [
          ["B-2", "member_id"],
          ["A-1", "national_id"],
          ["C-3", "passport"],
        ],
      );
    }
    assert.deepEqual(await memberRepo.findByIdentifiers(db, tenantId, ["nobody"]), []);
    assert.deepEqual(await memberRepo.findByIdentifiers(db, tenantId, []), []);
  });
});
