import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readMessage } from "../../../src/modules/fhir/bundle.js";
import { readClaimRequest } from "../../../src/modules/fhir/claim-request.js";
import { AppError } from "../../../src/platform/http/errors.js";
import { claimMessage, eligibilityMessage, headerOf, type Json, resourceOf } from "./bundles.js";

const CS = "http://nphies.sa/terminology/CodeSystem/";

/** the problems (path: message) a message is refused with; none when it maps */
function problemsOf(bundle: unknown): string[] {
  try {
    const message = readMessage(bundle);
    if (message.event === "priorauth-request" || message.event === "claim-request")
      readClaimRequest(message, message.event);
    return [];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    assert.equal(error.status, 400);
    return error.details;
  }
}

const pathsOf = (bundle: unknown) => problemsOf(bundle).map((problem) => problem.split(": ")[0]);

/** a professional priorauth-request with `change` applied to it */
function changed(
  change: (bundle: Json, claim: Json) => void,
  options: Parameters<typeof claimMessage>[0] = {},
) {
  const bundle = claimMessage(options);
  change(bundle, resourceOf(bundle, "Claim"));
  return bundle;
}

describe("reading a NPHIES request message", () => {
  it("maps a well-formed message of every kind", () => {
    for (const kind of ["institutional", "professional", "pharmacy", "oral", "vision"] as const)
      for (const event of ["priorauth-request", "claim-request"] as const)
        assert.deepEqual(problemsOf(claimMessage({ kind, event })), [], `${kind} ${event}`);
    assert.deepEqual(problemsOf(eligibilityMessage()), []);
  });

  it("maps the Claim onto the engine's request", () => {
    const message = readMessage(claimMessage({ kind: "pharmacy", identifier: "req_map_1" }));
    assert.equal(message.event, "priorauth-request");
    const { request: input, origin } = readClaimRequest(message, "priorauth-request");
    assert.equal(input.transaction_id, "req_map_1");
    assert.equal(input.claim_type, "PHARMACY");
    assert.equal(input.claim_sub_type, "OUT_PATIENT");
    assert.deepEqual(input.items[0], {
      service_code: "06285074000529",
      service_description: "Amoxicillin 500 mg capsules",
      nphies_code: "06285074000529",
      nphies_type: "PHARMACEUTICAL",
      service_type: "PHARMACEUTICAL",
      claimed_quantity: 2,
      claimed_amount: 18.5,
      erp_item_id: "1",
      duration: "5 days",
    });
    assert.deepEqual(input.diagnoses, [
      { type: "primary", code: "J02.9", name: "Acute pharyngitis, unspecified" },
    ]);
    assert.equal(input.supporting_info?.[0]?.code, "DAYS_SUPPLY");
    assert.equal(input.supporting_info?.[0]?.value, "5");
    assert.deepEqual(origin.items, [{ sequence: 1, tax: 0, patient_share: 0, net: 37 }]);
    assert.equal(origin.provider_license, "CCHI-1");
    assert.equal(origin.payer_license, "7000911508");
  });

  it("takes the first diagnosis as principal when none is typed, and a unit price from the net", () => {
    const bundle = changed((_bundle, claim) => {
      claim.diagnosis.push({ ...claim.diagnosis[0], sequence: 2 });
      for (const diagnosis of claim.diagnosis) delete diagnosis.type;
      claim.diagnosis[1].diagnosisCodeableConcept = {
        coding: [{ system: "http://hl7.org/fhir/sid/icd-10-am", code: "R50.9" }],
      };
      delete claim.item[0].unitPrice;
    });
    const { request: input } = readClaimRequest(readMessage(bundle), "priorauth-request");
    assert.deepEqual(
      input.diagnoses.map((diagnosis) => [diagnosis.type, diagnosis.code]),
      [
        ["primary", "J06.9"],
        ["secondary", "R50.9"],
      ],
    );
    // net 287.50 = 1 x unit price + tax 37.50
    assert.equal(input.items[0]?.claimed_amount, 250);
    const neither = changed((_bundle, claim) => {
      delete claim.item[0].unitPrice;
      delete claim.item[0].net;
    });
    assert.deepEqual(pathsOf(neither), ["Bundle.entry[1].resource.item[0].unitPrice"]);
  });

  it("accepts profiles of any version, or none", () => {
    for (const version of ["", "|0.3.0", "|1.0.0"])
      assert.deepEqual(
        problemsOf(
          changed((_bundle, claim) => {
            claim.meta.profile = [
              `http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/professional-priorauth${version}`,
            ];
          }),
        ),
        [],
      );
  });

  const refusals: [string, unknown, string[]][] = [
    ["not a JSON object", [], ["Bundle"]],
    ["not a Bundle", { ...claimMessage(), resourceType: "Parameters" }, ["Bundle.resourceType"]],
    ["not a message", { ...claimMessage(), type: "collection" }, ["Bundle.type"]],
    ["without entries", { ...claimMessage(), entry: undefined }, ["Bundle.entry"]],
    [
      "the MessageHeader not first",
      changed((bundle) => bundle.entry.reverse()),
      ["Bundle.entry[0].resource"],
    ],
    [
      "an event this endpoint does not process",
      changed((bundle) => {
        headerOf(bundle).eventCoding.code = "payment-notice";
      }),
      ["Bundle.entry[0].resource.eventCoding.code"],
    ],
    [
      "an event of another code system",
      changed((bundle) => {
        headerOf(bundle).eventCoding.system = "http://example.org/events";
      }),
      ["Bundle.entry[0].resource.eventCoding.system"],
    ],
    [
      "no focus",
      changed((bundle) => {
        delete headerOf(bundle).focus;
      }),
      ["Bundle.entry[0].resource.focus"],
    ],
    [
      "a focus that resolves to nothing",
      changed((bundle) => {
        headerOf(bundle).focus[0].reference = "Claim/missing";
      }),
      ["Bundle.entry[0].resource.focus[0].reference"],
    ],
    [
      "a patient reference that resolves to nothing",
      changed((_bundle, claim) => {
        claim.patient.reference = "http://provider.example.sa/fhir/Patient/404";
      }),
      ["Bundle.entry[1].resource.patient.reference"],
    ],
    [
      "a patient reference to an Organization",
      changed((_bundle, claim) => {
        claim.patient.reference = "http://provider.example.sa/fhir/Organization/PRV";
      }),
      ["Bundle.entry[1].resource.patient.reference"],
    ],
    [
      "a day that does not exist",
      changed((_bundle, claim) => {
        claim.item[0].servicedDate = "2026-02-30";
      }),
      ["Bundle.entry[1].resource.item[0].servicedDate"],
    ],
    [
      "a creation time that is not a dateTime",
      changed((_bundle, claim) => {
        claim.created = "yesterday";
      }),
      ["Bundle.entry[1].resource.created"],
    ],
    [
      "a negative unit price",
      changed((_bundle, claim) => {
        claim.item[1].unitPrice.value = -5;
      }),
      ["Bundle.entry[1].resource.item[1].unitPrice.value"],
    ],
    [
      "a currency other than riyals",
      changed((_bundle, claim) => {
        claim.item[1].unitPrice.currency = "USD";
      }),
      ["Bundle.entry[1].resource.item[1].unitPrice.currency"],
    ],
    [
      "two items of one sequence",
      changed((_bundle, claim) => {
        claim.item[1].sequence = 1;
      }),
      ["Bundle.entry[1].resource.item[1].sequence"],
    ],
    [
      "an item naming a diagnosis the Claim lacks",
      changed((_bundle, claim) => {
        claim.item[0].diagnosisSequence = [9];
      }),
      ["Bundle.entry[1].resource.item[0].diagnosisSequence[0]"],
    ],
    [
      "a use that is not the event's",
      changed((_bundle, claim) => {
        claim.use = "claim";
      }),
      ["Bundle.entry[1].resource.use"],
    ],
    [
      "an unknown claim type",
      changed((_bundle, claim) => {
        claim.type.coding[0].code = "veterinary";
      }),
      ["Bundle.entry[1].resource.type.coding"],
    ],
    [
      "a profile of another claim type",
      changed((_bundle, claim) => {
        claim.meta.profile = ["http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/oral-priorauth|1.0.0"];
      }),
      ["Bundle.entry[1].resource.meta.profile[0]"],
    ],
    [
      "two principal diagnoses",
      changed((_bundle, claim) => {
        claim.diagnosis.push({ ...claim.diagnosis[0], sequence: 2 });
      }),
      ["Bundle.entry[1].resource.diagnosis"],
    ],
    [
      "a Claim without an identifier",
      changed((_bundle, claim) => {
        delete claim.identifier;
      }),
      ["Bundle.entry[1].resource.identifier"],
    ],
  ];

  /** what NPHIES passes and a payer must therefore read, with what it reads */
  const accepted: [string, Json, (input: ReturnType<typeof readClaimRequest>) => void][] = [
    [
      "a service coded in a system this payer does not list (kept as sent)",
      changed((_bundle, claim) => {
        claim.item[0].productOrService.coding = [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }];
      }),
      (read) => assert.equal(read.request.items[0]?.nphies_code, "99213"),
    ],
    [
      "a diagnosis of another ICD-10 system",
      changed((_bundle, claim) => {
        claim.diagnosis[0].diagnosisCodeableConcept.coding[0].system = "http://hl7.org/fhir/sid/icd-10-cm";
      }),
      (read) => assert.equal(read.request.diagnoses[0]?.type, "primary"),
    ],
    [
      "a net that disagrees with its unit price (the unit price decides)",
      changed((_bundle, claim) => {
        claim.item[0].net.value = 999;
      }),
      (read) => assert.equal(read.request.items[0]?.claimed_amount, 250),
    ],
    [
      "a fractional quantity (one unit at its net)",
      changed((_bundle, claim) => {
        claim.item[1].quantity.value = 0.5;
        claim.item[1].net.value = 50;
      }),
      (read) =>
        assert.deepEqual(
          [read.request.items[1]?.claimed_quantity, read.request.items[1]?.claimed_amount],
          [1, 50],
        ),
    ],
    [
      "a factor (net = quantity x unit price x factor + tax)",
      changed((_bundle, claim) => {
        claim.item[1].factor = 0.8;
        claim.item[1].net.value = 80;
      }),
      (read) => assert.equal(read.request.items[1]?.claimed_amount, 80),
    ],
    [
      "a sub-type outside claim-subtype (the claim type's default)",
      changed((_bundle, claim) => {
        claim.subType.coding[0].code = "xyz";
      }),
      (read) => assert.equal(read.request.claim_sub_type, "OUT_PATIENT"),
    ],
    [
      "a Coverage without classes (the member's policy in force decides)",
      changed((bundle) => {
        delete resourceOf(bundle, "Coverage").class;
      }),
      (read) => assert.deepEqual(read.keys.classValues, []),
    ],
    [
      "a request without insurance (the patient's identifiers name the member)",
      changed((_bundle, claim) => {
        delete claim.insurance;
      }),
      (read) => assert.equal(read.origin.coverage, null),
    ],
    [
      "a Patient of unknown gender (the member on file's)",
      changed((bundle) => {
        resourceOf(bundle, "Patient").gender = "unknown";
      }),
      (read) => assert.equal(read.patient.gender, undefined),
    ],
    [
      "an identifier with spaces and slashes",
      changed((_bundle, claim) => {
        claim.identifier[0].value = "req 1/2";
      }),
      (read) => assert.equal(read.request.transaction_id, "req 1/2"),
    ],
    [
      "an institutional request with an Encounter resource but no encounter extension",
      changed(
        (_bundle, claim) => {
          claim.extension = [];
        },
        { kind: "institutional" },
      ),
      (read) => assert.notEqual(read.request.encounter, undefined),
    ],
    [
      "supporting info of a category this payer does not know (kept as OTHER)",
      changed((_bundle, claim) => {
        claim.supportingInfo[0].category.coding[0].code = "horoscope";
      }),
      (read) => assert.equal(read.request.supporting_info?.[0]?.code, "OTHER"),
    ],
    [
      "a reference that differs from its entry's fullUrl in case only",
      changed((_bundle, claim) => {
        claim.provider.reference = claim.provider.reference.replace("/Organization/", "/organization/");
      }),
      (read) => assert.equal(read.request.medical_provider_cchi_no, "CCHI-1"),
    ],
    [
      "a provider Organization without its licence (the MessageHeader's sender names it)",
      changed((bundle) => {
        resourceOf(bundle, "Organization").identifier = [];
      }),
      (read) => assert.equal(read.request.medical_provider_cchi_no, "CCHI-1"),
    ],
  ];

  for (const [what, bundle, check] of accepted)
    it(`reads ${what}`, () => {
      const message = readMessage(bundle);
      if (message.event !== "priorauth-request") throw new Error("a priorauth-request");
      check(readClaimRequest(message, message.event));
    });

  for (const [what, bundle, paths] of refusals)
    it(`refuses ${what}, naming ${paths.join(", ")}`, () => {
      assert.deepEqual(pathsOf(bundle), paths, JSON.stringify(problemsOf(bundle)));
    });

  it("names every problem of a message at once", () => {
    const bundle = changed((_bundle, claim) => {
      claim.item[0].servicedDate = "2026-13-01";
      claim.item[1].productOrService.coding[0].system = `${CS}unknown`;
      claim.created = "2026-03-10 08:00";
    });
    assert.deepEqual(pathsOf(bundle).sort(), [
      "Bundle.entry[1].resource.created",
      "Bundle.entry[1].resource.item[0].servicedDate",
    ]);
    // the schema's problems come first; once they are fixed, the mapping's are named
    const next = changed((_bundle, claim) => {
      claim.item[1].productOrService.coding = [{ system: `${CS}unknown`, code: "X" }];
      claim.item[0].diagnosisSequence = [7];
      claim.use = "predetermination";
    });
    assert.deepEqual(pathsOf(next).sort(), [
      "Bundle.entry[1].resource.item[0].diagnosisSequence[0]",
      "Bundle.entry[1].resource.use",
    ]);
  });

  it("refuses an eligibility request whose coverage does not resolve", () => {
    const bundle = eligibilityMessage();
    resourceOf(bundle, "CoverageEligibilityRequest").insurance[0].coverage.reference = "Coverage/none";
    const message = readMessage(bundle);
    assert.equal(message.event, "eligibility-request");
    assert.deepEqual(
      message.resolve(
        resourceOf(bundle, "CoverageEligibilityRequest").insurance[0].coverage,
        "Bundle.entry[1].resource.insurance[0].coverage",
        "Coverage",
      ),
      undefined,
    );
    assert.deepEqual(
      message.problems.found.map((problem) => problem.path),
      ["Bundle.entry[1].resource.insurance[0].coverage.reference"],
    );
  });
});
