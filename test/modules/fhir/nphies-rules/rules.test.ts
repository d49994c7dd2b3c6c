import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readMessage } from "./context.js";
import { parseCsv } from "./csv.js";
import { isObject, type JsonObject, objects } from "./json.js";
import { checkResponseMessage, IMPLEMENTED_RULE_IDS } from "./rules.js";
import { shapeDifferences } from "./shape.js";
import { loadTerminology, PACK_DIR, type Terminology } from "./terminology.js";

const SAMPLES = join(PACK_DIR, "samples");
const absent = !existsSync(SAMPLES) && `the NPHIES implementer pack is absent (${PACK_DIR})`;
const terminology: Terminology = loadTerminology() ?? new Map();

/** a pack sample by its number ("2b"), parsed */
function sample(prefix: string): JsonObject {
  const file = readdirSync(SAMPLES).find((name) => name.startsWith(`${prefix} `));
  assert.ok(file, `sample ${prefix}`);
  const parsed: unknown = JSON.parse(readFileSync(join(SAMPLES, file), "utf8"));
  assert.ok(isObject(parsed));
  return parsed;
}

const keys = (response: unknown, request: unknown) =>
  checkResponseMessage(response, request, terminology).map((v) => `${v.rule} ${v.path}`);

// the pack's responses name the ClaimResponse / eligibility response fullUrl "Claimresponse" / "Coverageeligibilityresponse"
const fullUrlCase = (url: string) => `BV-00208 Bundle.entry(${url})`;
// the echoed Coverage's payor points at ".../organization/..." (lower case): no such entry
const payorUnresolved = [
  "BV-00079 Coverage(http://sni.com.sa/Coverage/3).payor[0]",
  "RE-00174 Coverage(http://sni.com.sa/Coverage/3).payor[0]",
];
// subType became 1..1 in IG v5.2 (2023); the responses predate it
const noSubType = "IC-01567 ClaimResponse.subType";
// 2d/2e answer a second dental request (req_299051, header ...9051) the pack does not hold; 2a is the first
const answersOtherRequest = (bv: string) => [
  "BV-00544 MessageHeader.response.identifier",
  "BV-00175 MessageHeader.response.identifier",
  `${bv} MessageHeader.response.identifier`,
];
const otherClaim = ["BV-00003 ClaimResponse.request", "BV-00098 ClaimResponse.request"];

/**
 * Every payer response of the pack against its request, and the deviations of the pack's own samples
 * from the rules: the checker must find exactly these, no more (a false alarm) and no fewer (a blind spot).
 */
const KNOWN_DEVIATIONS: Record<string, { request?: string; deviations: string[] }> = {
  "2b": {
    request: "2a",
    deviations: [
      fullUrlCase("http://sni.com.sa/Claimresponse/618390"),
      ...payorUnresolved,
      noSubType,
      // N-DC-079 / N-DC-085: the code lists have NDC079 (older release) or AD-/BE-/CV- codes (newer)
      "IB-00063 ClaimResponse.item[1].adjudication[3].reason",
      "IB-00063 ClaimResponse.item[2].adjudication[3].reason",
    ],
  },
  "2d": {
    request: "2a",
    deviations: [
      fullUrlCase("http://sni.com.sa/Claimresponse/619051"),
      ...payorUnresolved,
      ...answersOtherRequest("BV-00174"),
      noSubType,
      "IB-00063 ClaimResponse.item[1].adjudication[3].reason",
      ...otherClaim,
    ],
  },
  "2e": {
    request: "2a",
    deviations: [
      fullUrlCase("http://sni.com.sa/Claimresponse/419051"),
      ...payorUnresolved,
      ...answersOtherRequest("BV-00174"),
      noSubType,
      ...otherClaim,
    ],
  },
  "5b": {
    request: "5a",
    deviations: [
      fullUrlCase("http://sni.com.sa/Claimresponse/617363"),
      // response.identifier 54cf5884-...-7363 is not 5a's MessageHeader.id 0296c6fe-...-7363
      ...answersOtherRequest("BV-00174"),
      noSubType,
      // 5a is a professional "op" request; the response has no subType to echo
      "BV-00081 ClaimResponse.subType",
    ],
  },
  "7b": {
    request: "7a",
    deviations: [
      fullUrlCase("http://sni.com.sa/Claimresponse/419060"),
      ...payorUnresolved,
      noSubType,
      "BV-00081 ClaimResponse.subType",
    ],
  },
  "14b": { request: "14a", deviations: [] },
  // 15b/15c answer a discovery request ...2900 / req_162900; 15a is ...2518 / req_162518
  ...Object.fromEntries(
    ["15b", "15c"].map((id) => [
      id,
      {
        request: "15a",
        deviations: [
          fullUrlCase("http://sni.com.sa/Coverageeligibilityresponse/62900"),
          ...answersOtherRequest("BV-00172"),
          "BV-00028 CoverageEligibilityResponse.request",
          "BV-00151 CoverageEligibilityResponse.request",
        ],
      },
    ]),
  ),
  // the cancel response drops the request's reasonCode (WI)
  "17b": { request: "17a", deviations: ["BV-00466 Task.reasonCode"] },
  "9c": {
    request: "9b",
    deviations: [
      // answers a status check ...8331 (9b is ...5609), from the test-environment licences
      "BV-00544 MessageHeader.response.identifier",
      "BV-00175 MessageHeader.response.identifier",
      // sender INS-FHIR while 9b went to N-I-00001; receiver 172612820 while 9b came from N-F-00002
      "BV-00447 MessageHeader.sender",
      "BV-00448 MessageHeader.destination.receiver",
    ],
  },
  // a payer-initiated message: no request
  "18a": { deviations: [] },
};

describe("NPHIES rules: the pack's own responses", { skip: absent }, () => {
  for (const [id, { request, deviations }] of Object.entries(KNOWN_DEVIATIONS)) {
    it(`${id} against ${request ?? "no request"}: only the known deviations`, () => {
      const found = keys(sample(id), request === undefined ? undefined : sample(request));
      assert.deepEqual([...found].sort(), [...deviations].sort());
    });
  }

  it("implements a sizeable, well-formed set of rule ids", () => {
    assert.ok(IMPLEMENTED_RULE_IDS.length > 300, `${IMPLEMENTED_RULE_IDS.length}`);
    const known = new Set(
      parseCsv(readFileSync(join(PACK_DIR, "terminology", "validation-rules.csv"), "utf8")).map(
        (row) => row[0],
      ),
    );
    for (const ruleId of IMPLEMENTED_RULE_IDS)
      assert.ok(known.has(ruleId), `${ruleId} is not in validation-rules.csv`);
  });
});

/** a sample, changed by `edit` on its focal resource / header, and the rules it newly breaks */
function broken(
  responseId: string,
  requestId: string | undefined,
  edit: (focal: JsonObject, header: JsonObject, bundle: JsonObject) => void,
) {
  const request = requestId === undefined ? undefined : sample(requestId);
  const before = new Set(keys(sample(responseId), request));
  const changed = structuredClone(sample(responseId));
  const message = readMessage(changed);
  assert.ok(message.focal && message.header);
  edit(message.focal, message.header, changed);
  return checkResponseMessage(changed, request, terminology)
    .filter((v) => !before.has(`${v.rule} ${v.path}`))
    .map((v) => v.rule);
}

const first = (value: unknown): JsonObject => {
  const found = objects(value)[0];
  assert.ok(found);
  return found;
};

describe("NPHIES rules: one broken thing each", { skip: absent }, () => {
  it("a ClaimResponse without outcome", () => {
    assert.ok(broken("7b", "7a", (cr) => delete cr.outcome).includes("IC-00095"));
  });

  it("an item sequence the claim lacks", () => {
    const rules = broken("7b", "7a", (cr) => {
      first(cr.item).itemSequence = 9;
    });
    for (const id of ["BV-00019", "BV-00046", "BV-00097"]) assert.ok(rules.includes(id), `${id} in ${rules}`);
  });

  it("a repeated item sequence", () => {
    const rules = broken("2b", "2a", (cr) => {
      const second = objects(cr.item)[1];
      assert.ok(second);
      second.itemSequence = 1;
    });
    assert.ok(rules.includes("BV-00119"), `${rules}`);
  });

  it("a response.identifier that is not the request's MessageHeader.id", () => {
    const rules = broken("7b", "7a", (_cr, header) => {
      header.response = { identifier: "00000000-0000-4000-8000-000000000000", code: "ok" };
    });
    for (const id of ["BV-00544", "BV-00171"]) assert.ok(rules.includes(id), `${id} in ${rules}`);
  });

  it("an adjudication category code not in its system", () => {
    const rules = broken("7b", "7a", (cr) => {
      first(first(first(first(cr.item).adjudication).category).coding).code = "paid";
    });
    assert.ok(rules.includes("IB-00062"), `${rules}`);
  });

  it("a reference to a fullUrl not in the bundle", () => {
    const rules = broken("7b", "7a", (cr) => {
      cr.patient = { reference: "http://sni.com.sa/Patient/404" };
    });
    for (const id of ["RE-00030", "BV-00079", "BV-00074"]) assert.ok(rules.includes(id), `${id} in ${rules}`);
  });

  it("an eligibility response complete without siteEligibility", () => {
    assert.ok(broken("14b", "14a", (cer) => delete cer.extension).includes("BV-00503"));
  });

  it("an eligible site with no insurance in force", () => {
    const rules = broken("14b", "14a", (cer) => {
      first(cer.insurance).inforce = false;
    });
    assert.ok(rules.includes("BV-00535"), `${rules}`);
  });

  it("an eligibility outcome error without error codes", () => {
    assert.ok(broken("15c", "15a", (cer) => delete cer.error).includes("BV-00536"));
  });

  it("a claim outcome error without error codes", () => {
    const rules = broken("7b", "7a", (cr) => {
      cr.outcome = "error";
      delete cr.item;
    });
    assert.ok(rules.includes("BV-00505"), `${rules}`);
    assert.ok(rules.includes("BV-00396"), `${rules}`);
  });

  it("a Task status not in task-status", () => {
    assert.ok(broken("17b", "17a", (task) => (task.status = "done")).includes("IB-00228"));
  });

  it("a response event that does not answer the request", () => {
    const rules = broken("7b", "7a", (_cr, header) => {
      header.eventCoding = {
        system: "http://nphies.sa/terminology/CodeSystem/ksa-message-events",
        code: "priorauth-response",
      };
    });
    assert.ok(rules.includes("BV-00543"), `${rules}`);
  });

  it("a sender that is not the request's receiver", () => {
    const rules = broken("14b", "14a", (_cr, header) => {
      header.sender = {
        type: "Organization",
        identifier: { system: "http://nphies.sa/license/payer-license", value: "N-I-00099" },
      };
    });
    assert.ok(rules.includes("BV-00447"), `${rules}`);
  });

  it("a dateTime without zone and an amount in dollars", () => {
    const rules = broken("7b", "7a", (cr) => {
      cr.created = "2021-10-07T10:00:00";
      first(first(cr.item).adjudication).amount = { value: 230, currency: "USD" };
    });
    for (const id of ["DT-00275", "BV-00458"]) assert.ok(rules.includes(id), `${id} in ${rules}`);
  });
});

describe("NPHIES terminology", { skip: absent }, () => {
  it("reads the pack's code systems, separate lists included", () => {
    const has = (system: string, code: string) => terminology.get(system)?.has(code) ?? false;
    assert.ok(has("http://nphies.sa/terminology/CodeSystem/siteEligibility", "not-covered"));
    assert.ok(has("http://nphies.sa/terminology/CodeSystem/adjudication-error", "1658"));
    assert.ok(has("http://nphies.sa/terminology/CodeSystem/adjudication-reason", "AD-1-1"));
    assert.ok(has("http://nphies.sa/terminology/CodeSystem/benefit-category", "84"));
    assert.ok(has("http://nphies.sa/terminology/CodeSystem/benefit-type", "benefit"));
    assert.ok(has("http://nphies.sa/terminology/CodeSystem/weight-absence-reason", "999.9"));
    assert.ok(has("http://hl7.org/fhir/task-status", "completed"));
    // "---": listed elsewhere, so not enumerated here
    assert.equal(terminology.get("http://hl7.org/fhir/sid/icd-10-am"), undefined);
  });
});

describe("CSV parser", () => {
  it("keeps quoted commas, doubled quotes and line breaks inside a field", () => {
    assert.deepEqual(parseCsv('a,b\r\n"x, ""y""","line\n""two"""\n'), [
      ["a", "b"],
      ['x, "y"', 'line\n"two"'],
    ]);
  });
});

describe("response shape", { skip: absent }, () => {
  it("names the pack's elements ours lacks, minus the allowed ones", () => {
    const pack = sample("2b");
    const ours = structuredClone(pack);
    const focal = readMessage(ours).focal;
    assert.ok(focal);
    delete focal.preAuthPeriod;
    first(first(focal.item).adjudication).category = {
      coding: [{ system: "http://terminology.hl7.org/CodeSystem/adjudication", code: "other" }],
    };
    assert.deepEqual(shapeDifferences(ours, pack, ["ClaimResponse.preAuthPeriod"]), []);
    assert.deepEqual(shapeDifferences(ours, pack), [
      "ClaimResponse.preAuthPeriod",
      "ClaimResponse.preAuthPeriod.end",
      "ClaimResponse.preAuthPeriod.start",
    ]);
    assert.deepEqual(shapeDifferences(pack, pack), []);
  });
});
