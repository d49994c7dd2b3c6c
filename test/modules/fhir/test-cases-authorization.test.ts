import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectStatus } from "../prior-auth/fixtures.js";
import { claimMessage, type Json } from "./bundles.js";
import { communicationMessage, packAbsent, taskMessage } from "./pack.js";
import {
  focusOf,
  outcomeOf,
  type ScenarioPayer,
  startScenarioPayer,
  violationsOf,
} from "./scenario-fixture.js";
import {
  asPackage,
  claimOf,
  deferred,
  eligibilityResponse,
  identifierOf,
  labTestInfo,
  newborn,
  OFFLINE_ELIGIBILITY,
  pharmacyWithShadowBilling,
  relatedTo,
  TRANSFER,
  VITAL_SIGNS,
  withExtension,
  withInfo,
  withTooth,
  withVisionPrescription,
} from "./scenario-messages.js";

/**
 * The payer ("HIC") steps of the NPHIES authorization test cases (test-cases/authorization-v6.0.txt, the
 * pseudo-payer INS-FHIR's scenarios), one test each, driven over HTTP as NPHIES delivers the provider's
 * messages, with what the payer sends later caught at its NPHIES endpoint. Test case 10 (advanced prior
 * authorization, which the payer initiates) is not built.
 */

const SD = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/";

describe("NPHIES authorization test cases: the payer's steps", { skip: packAbsent }, () => {
  let payer: ScenarioPayer;
  before(async () => {
    payer = await startScenarioPayer();
  });
  after(() => payer.close());
  const send = (request: Json) => payer.send(request);
  const sentAbout = (claim: Json, count: number) => payer.sentAbout(claim, count);
  const decide = (claim: Json, body: Json) => payer.decide(claim, body);

  it("1: an institutional request asking deferred processing is answered queued, an unsolicited communication acknowledged and attached, and the adjudicated response sent", async () => {
    const request = asPackage(
      withInfo(deferred(claimMessage({ kind: "institutional", date: "2026-04-06" })), VITAL_SIGNS),
    );
    const claim = claimOf(request);
    claim.item.push(
      ...["83600-00-00", "83600-00-00"].map((code, index) => ({
        ...structuredClone(claim.item[1]),
        sequence: 3 + index,
        productOrService: { coding: [{ system: "http://nphies.sa/terminology/CodeSystem/services", code }] },
      })),
    );
    const first = focusOf(await send(request));
    assert.equal(first.outcome, "queued");
    assert.equal(outcomeOf(first), "pended");
    const communication = communicationMessage("18c", identifierOf(request));
    const payload = communication.entry[1].resource.payload;
    payload[0].extension = [{ url: `${SD}extension-claimItemSequence`, valuePositiveInt: 2 }];
    const ack = await send(communication);
    assert.equal(ack.entry[0].resource.eventCoding.code, "acknowledgement");
    assert.equal(ack.entry[0].resource.response.code, "ok");
    const [final] = await sentAbout(identifierOf(request), 1);
    assert.equal(final?.event, "priorauth-response");
    assert.equal(final?.focus.outcome, "complete");
    assert.equal(final?.focus.item.length, 4);
    // the package's components are adjudicated with it (BV: every submitted detail answered)
    assert.deepEqual(
      final?.focus.item[0].detail.map((detail: Json) => detail.detailSequence),
      [1, 2, 3],
    );
    const stored = await payer.getOne(identifierOf(request));
    assert.equal(stored.communications.length, 1);
    assert.equal(stored.encounter.encounter_class, "IMP");
    assert.ok(stored.supporting_info.some((info: Json) => info.code === "VITAL_SIGN_SYSTOLIC"));
  });

  it("2: a professional request citing an eligibility response, deferred, with LOINC lab tests: queued, a communication-request sent, the solicited communication acknowledged, then the final response", async () => {
    const request = withInfo(
      withExtension(deferred(claimMessage({ date: "2026-02-02" })), eligibilityResponse("resp_elig_77")),
      ["80096-1", "43863-0", "55951-8", "12419-8"].map(labTestInfo),
    );
    const first = focusOf(await send(request));
    assert.equal(first.outcome, "queued");
    await expectStatus(
      payer.tenant.call("POST", "/communication-request/create", {
        transaction_id: identifierOf(request).value,
        erp_reviewer_id: "rev1",
        content: "Please send the lab report",
        erp_item_ids: ["2"],
      }),
      201,
    );
    const sent = await sentAbout(identifierOf(request), 2);
    assert.deepEqual(sent.map((message) => message.event).sort(), [
      "communication-request",
      "priorauth-response",
    ]);
    const solicited = communicationMessage("18b", identifierOf(request));
    const ack = await send(solicited);
    assert.equal(ack.entry[0].resource.response.code, "ok");
    const stored = await payer.getOne(identifierOf(request));
    assert.equal(stored.communications.length, 1);
    assert.equal(stored.communication_requests.length, 1);
  });

  it("3: a dental request with an offline eligibility reference and its tooth: answered complete at once, then cancelled", async () => {
    const request = withTooth(
      withExtension(claimMessage({ kind: "oral", date: "2026-04-08" }), OFFLINE_ELIGIBILITY[0] as Json),
    );
    withExtension(request, OFFLINE_ELIGIBILITY[1] as Json);
    const answer = focusOf(await send(request));
    assert.equal(answer.outcome, "complete");
    assert.ok(answer.preAuthRef);
    const cancelled = focusOf(await send(taskMessage("17a", identifierOf(request))));
    assert.equal(cancelled.status, "completed");
    const stored = await payer.getOne(identifierOf(request));
    assert.equal(stored.status, "CANCELLED");
  });

  it("4: an optical request with its vision prescription: answered complete at once", async () => {
    const request = withVisionPrescription(claimMessage({ kind: "vision", date: "2026-04-09" }));
    const answer = focusOf(await send(request));
    assert.equal(answer.outcome, "complete");
    assert.equal(outcomeOf(answer), "approved", answer.disposition);
  });

  it("5: a pharmacy request with days supply per item and an unlisted drug billed by its SFDA code: answered complete at once", async () => {
    const request = pharmacyWithShadowBilling("2026-04-10");
    const answer = focusOf(await send(request));
    assert.equal(answer.outcome, "complete");
    assert.equal(answer.item.length, 3);
    const stored = await payer.getOne(identifierOf(request));
    assert.deepEqual(
      stored.items.map((item: Json) => [item.service_code, item.duration]),
      [
        ["06285097000056", "30 days"],
        ["06285096000798", "10 days"],
        ["SFDA-7766", "5 days"],
      ],
    );
  });

  it("6 and 7: a resubmission or follow-up (Claim.related prior) is answered pended, and finally once a reviewer decides", async () => {
    // professional services of one member more than 30 days apart: none is a duplicate of another
    const earlier = claimMessage({ date: "2026-05-04" });
    await send(earlier);
    const followUp = relatedTo(claimMessage({ date: "2026-05-04" }), identifierOf(earlier));
    const first = focusOf(await send(followUp));
    assert.equal(first.outcome, "queued");
    assert.equal(outcomeOf(first), "pended");
    await decide(identifierOf(followUp), { status: "ACCEPTED" });
    const [final] = await sentAbout(identifierOf(followUp), 1);
    assert.equal(final?.focus.outcome, "complete");
    const stored = await payer.getOne(identifierOf(followUp));
    assert.equal(stored.related_authorization_number, identifierOf(earlier).value);
  });

  it("8: a newborn on its mother's membership, with its birth weight and a Z38 diagnosis: pended, then the final response", async () => {
    const request = newborn(deferred(claimMessage({ date: "2026-06-08" })), "2026-05-20");
    const first = focusOf(await send(request));
    assert.equal(first.outcome, "queued");
    const [final] = await sentAbout(identifierOf(request), 1);
    assert.equal(final?.focus.outcome, "complete");
    assert.notEqual(
      outcomeOf(final?.focus),
      "rejected",
      JSON.stringify(
        final?.focus.item.map((item: Json) => item.adjudication.map((entry: Json) => entry.reason?.text)),
      ),
    );
    const stored = await payer.getOne(identifierOf(request));
    assert.equal(stored.member_id, "M1", "the mother's membership");
    assert.equal(stored.is_new_born, true);
    assert.equal(stored.member_dob, "2026-05-20T00:00:00.000Z", "the newborn's facts");
  });

  it("9: a referral (transfer of care) is pended; the final response names the receiving provider the reviewer referred to", async () => {
    const request = withExtension(deferred(claimMessage({ date: "2026-07-13" })), TRANSFER);
    const first = focusOf(await send(request));
    assert.equal(first.outcome, "queued");
    await decide(identifierOf(request), {
      status: "REFERRED",
      referral_cchi_code: "CCHI-2",
      referral_valid_days: 10,
    });
    const [final] = await sentAbout(identifierOf(request), 1);
    const response: Json = final?.focus ?? {};
    assert.equal(response.outcome, "complete");
    const extension = (name: string) =>
      response.extension.find((entry: Json) => entry.url === `${SD}extension-${name}`);
    assert.ok(extension("transferAuthorizationNumber")?.valueString);
    assert.deepEqual(extension("transferAuthorizationPeriod")?.valuePeriod, {
      start: "2026-07-13",
      end: "2026-07-23",
    });
    const provider = final?.bundle.entry.find(
      (entry: Json) => entry.fullUrl === extension("transferAuthorizationProvider")?.valueReference.reference,
    );
    assert.equal(provider?.resource.identifier[0].value, "CCHI-2");
    assert.deepEqual(violationsOf(final?.bundle ?? {}, request), []);
  });
});
