import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectStatus } from "../prior-auth/fixtures.js";
import { claimMessage, type Json, resourceOf } from "./bundles.js";
import { postMessage } from "./fixtures.js";
import { communicationMessage, packAbsent, sample, taskMessage } from "./pack.js";
import {
  focusOf,
  outcomeOf,
  type ScenarioPayer,
  startScenarioPayer,
  violationsOf,
} from "./scenario-fixture.js";
import {
  ATTACHMENT_INFO,
  asPackage,
  claimOf,
  deferred,
  eligibilityResponse,
  episode,
  identifierOf,
  labTestInfo,
  newborn,
  OFFLINE_ELIGIBILITY,
  pharmacyWithShadowBilling,
  VITAL_SIGNS,
  withExtension,
  withInfo,
  withTooth,
  withVisionPrescription,
} from "./scenario-messages.js";

/**
 * The payer ("HIC") steps of the NPHIES claim test cases (test-cases/claims-v4.0.txt), one test each,
 * driven over HTTP as NPHIES delivers the provider's messages; what the payer sends later is caught at
 * its NPHIES endpoint. Payments (payment-v3.0) are not built.
 */

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";
const CS = "http://nphies.sa/terminology/CodeSystem/";

/** a claim-request billed under the prior authorization `preAuthRef` */
const claimUnder = (bundle: Json, preAuthRef: string): Json => {
  claimOf(bundle).insurance[0].preAuthRef = [preAuthRef];
  return bundle;
};

describe("NPHIES claim test cases: the payer's steps", { skip: packAbsent }, () => {
  let payer: ScenarioPayer;
  before(async () => {
    payer = await startScenarioPayer();
  });
  after(() => payer.close());

  it("1: a pharmacy claim under its approved authorization, deferred: queued, a communication-request, the solicited communication, the final response", async () => {
    const authorization = pharmacyWithShadowBilling("2026-02-03");
    const approved = focusOf(await payer.send(authorization));
    assert.equal(approved.outcome, "complete");
    assert.equal(outcomeOf(approved), "approved", approved.disposition);
    const claim = claimUnder(deferred(pharmacyWithShadowBilling("2026-02-03")), approved.preAuthRef);
    // one item a medical device
    const device = structuredClone(claimOf(claim).item[0]);
    device.sequence = 4;
    device.productOrService = { coding: [{ system: `${CS}medical-devices`, code: "MD-1001" }] };
    device.unitPrice = { value: 120, currency: "SAR" };
    device.net = { value: 120, currency: "SAR" };
    delete device.informationSequence;
    claimOf(claim).item.push(device);
    withExtension(claim, episode("EP-PH-1"));
    const request = claim;
    resourceOf(request, "MessageHeader").eventCoding.code = "claim-request";
    claimOf(request).use = "claim";
    claimOf(request).meta.profile = [`${SD}pharmacy-claim|1.0.0`];
    const first = focusOf(await payer.send(request));
    assert.equal(first.outcome, "queued");
    await expectStatus(
      payer.tenant.call("POST", "/communication-request/create", {
        transaction_id: identifierOf(request).value,
        erp_reviewer_id: "rev1",
        content: "Please send the prescription",
      }),
      201,
    );
    const ack = await payer.send(communicationMessage("18b", identifierOf(request)));
    assert.equal(ack.entry[0].resource.response.code, "ok");
    const sent = await payer.sentAbout(identifierOf(request), 2);
    const final = sent.find((message) => message.event === "claim-response");
    assert.equal(final?.focus.outcome, "complete");
    assert.equal(final?.focus.item.length, 4);
    const stored = await payer.getOne(identifierOf(request));
    assert.equal(stored.transaction_type, "CLAIM");
    assert.equal(stored.authorization_number, approved.preAuthRef);
  });

  it("2: a professional claim citing an eligibility response, deferred, with vital signs and LOINC lab tests, and an unsolicited communication; the reviewer rejects it", async () => {
    const request = withInfo(
      withExtension(
        deferred(claimMessage({ event: "claim-request", date: "2026-08-03" })),
        eligibilityResponse("E-9"),
      ),
      [
        {
          category: { coding: [{ system: `${CS}claim-information-category`, code: "onset" }] },
          timingDate: "2026-08-01",
        },
        {
          category: { coding: [{ system: `${CS}claim-information-category`, code: "temperature" }] },
          valueQuantity: { value: 38.5, system: "http://unitsofmeasure.org", code: "Cel" },
        },
        {
          category: { coding: [{ system: `${CS}claim-information-category`, code: "pulse" }] },
          valueQuantity: { value: 72, system: "http://unitsofmeasure.org", code: "/min" },
        },
        labTestInfo("80096-1"),
      ],
    );
    const first = focusOf(await payer.send(request));
    assert.equal(first.outcome, "queued");
    const communication = communicationMessage("18c", identifierOf(request));
    communication.entry[1].resource.payload[0].extension = [
      { url: `${SD}extension-claimItemSequence`, valuePositiveInt: 2 },
    ];
    await payer.send(communication);
    await payer.decide(identifierOf(request), { status: "REJECTED" });
    const sent = await payer.sentAbout(identifierOf(request), 2);
    const last: Json = sent.at(-1)?.focus ?? {};
    assert.equal(last.outcome, "complete");
    assert.equal(outcomeOf(last), "rejected");
  });

  it("3: an institutional claim with an offline eligibility reference, vital signs, an attachment, ICU hours, its encounter and a package: queued, final partially approved, and a status check answers complete", async () => {
    const request = asPackage(
      withInfo(
        deferred(claimMessage({ kind: "institutional", event: "claim-request", date: "2026-08-10" })),
        [
          ...VITAL_SIGNS,
          ATTACHMENT_INFO,
          {
            category: { coding: [{ system: `${CS}claim-information-category`, code: "icu-hours" }] },
            valueQuantity: { value: 12, system: "http://unitsofmeasure.org", code: "h" },
          },
        ],
      ),
    );
    for (const extension of OFFLINE_ELIGIBILITY) withExtension(request, extension);
    resourceOf(request, "Encounter").period = {
      start: "2026-08-10T08:00:00+03:00",
      end: "2026-08-12T10:00:00+03:00",
    };
    // the room billed above its contract price of 600: partially approved
    claimOf(request).item[1].unitPrice.value = 700;
    claimOf(request).item[1].net.value = 1400;
    const first = focusOf(await payer.send(request));
    assert.equal(first.outcome, "queued");
    const [final] = await payer.sentAbout(identifierOf(request), 1);
    assert.equal(final?.focus.outcome, "complete");
    assert.equal(outcomeOf(final?.focus), "partial", final?.focus.disposition);
    const status = focusOf(await payer.send(taskMessage("9b", identifierOf(request))));
    assert.equal(status.status, "completed");
    assert.equal(status.output[0].valueCode, "complete");
  });

  it("4: a dental claim with an offline authorization reference and its tooth: approved at once, then cancelled", async () => {
    const request = withTooth(
      withExtension(claimMessage({ kind: "oral", event: "claim-request", date: "2026-08-11" }), {
        url: `${SD}extension-authorization-offline-date`,
        valueDateTime: "2026-08-01T10:00:00+03:00",
      }),
    );
    claimOf(request).insurance[0].preAuthRef = ["OFFLINE-AUTH-1"];
    const answer = focusOf(await payer.send(request));
    assert.equal(answer.outcome, "complete");
    assert.equal(outcomeOf(answer), "approved", answer.disposition);
    const cancelled = focusOf(
      await payer.send(taskMessage("17a", identifierOf(request), "CCHI-1", "nullify")),
    );
    assert.equal(cancelled.status, "completed");
    assert.equal((await payer.getOne(identifierOf(request))).status, "CANCELLED");
  });

  it("5: a claim of a member the payer does not know (iqama 2333333333), without any reference, is answered with an error", async () => {
    const request = claimMessage({ event: "claim-request", memberId: "2333333333", date: "2026-08-12" });
    resourceOf(request, "Patient").identifier = [
      { system: "http://nphies.sa/identifier/iqama", value: "2333333333" },
    ];
    const answer = focusOf(await payer.send(request));
    assert.equal(answer.outcome, "error");
    assert.equal(answer.error[0].code.coding[0].code, "1658");
  });

  it("6: a newborn's claim on its mother's membership (mother by iqama, newborn by MRN), deferred: pended, then approved", async () => {
    const request = newborn(
      deferred(claimMessage({ event: "claim-request", date: "2026-09-14" })),
      "2026-08-30",
    );
    const first = focusOf(await payer.send(request));
    assert.equal(first.outcome, "queued");
    const [final] = await payer.sentAbout(identifierOf(request), 1);
    assert.equal(final?.focus.outcome, "complete");
    assert.notEqual(outcomeOf(final?.focus), "rejected", final?.focus.disposition);
  });

  it("7: a batch of claims is answered claim by claim, each complete", async () => {
    const batch = sample("16");
    const inner = [
      claimMessage({ event: "claim-request", date: "2026-10-05" }),
      claimMessage({ kind: "oral", event: "claim-request", date: "2026-10-06" }),
    ];
    batch.entry = [
      batch.entry[0],
      ...inner.map((bundle, index) => ({ fullUrl: `urn:uuid:${bundle.id}`, resource: bundle, index })),
    ].map(({ index: _index, ...entry }: Json) => entry);
    batch.entry[0].resource.focus = inner.map((bundle) => ({ reference: `urn:uuid:${bundle.id}` }));
    batch.entry[0].resource.sender.identifier.value = "CCHI-1";
    // each inner answer is checked against the rules as the message it is (the batch only carries them)
    const res = await postMessage(payer.ctx, payer.tenant, batch);
    assert.equal(res.statusCode, 200, res.body.slice(0, 500));
    const response = res.json();
    assert.equal(response.entry[0].resource.eventCoding.code, "batch-response");
    const answers = response.entry.slice(1).map((entry: Json) => entry.resource);
    assert.deepEqual(
      answers.map((answer: Json) => focusOf(answer).outcome),
      ["complete", "complete"],
    );
    answers.forEach((answer: Json, index: number) => {
      assert.deepEqual(violationsOf(answer, inner[index]), []);
    });
  });

  it("8: an optical claim citing eligibility and authorization responses, with its vision prescription, deferred: queued; the reviewer rejects it", async () => {
    const request = withVisionPrescription(
      withExtension(
        deferred(claimMessage({ kind: "vision", event: "claim-request", date: "2026-10-12" })),
        eligibilityResponse("E-10"),
      ),
    );
    claimOf(request).insurance[0].preAuthRef = ["AUTH-OPT-1"];
    const first = focusOf(await payer.send(request));
    assert.equal(first.outcome, "queued");
    await payer.decide(identifierOf(request), { status: "REJECTED" });
    const sent = await payer.sentAbout(identifierOf(request), 2);
    assert.equal(outcomeOf(sent.at(-1)?.focus ?? {}), "rejected");
  });

  it("9: a large institutional claim of 300 items is adjudicated item by item within the 60-second session", async () => {
    const request = claimMessage({ kind: "institutional", event: "claim-request", date: "2026-11-02" });
    const claim = claimOf(request);
    const room = claim.item[1];
    claim.item = Array.from({ length: 300 }, (_, index) => ({
      ...structuredClone(room),
      sequence: index + 1,
    }));
    claim.total = { value: 300 * room.net.value, currency: "SAR" };
    const started = Date.now();
    const answer = focusOf(await payer.send(request));
    assert.ok(Date.now() - started < 60_000);
    assert.equal(answer.outcome, "complete");
    assert.equal(answer.item.length, 300);
  });
});
