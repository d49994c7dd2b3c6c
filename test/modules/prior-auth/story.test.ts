import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startTestApp, type TestContext } from "../../helpers.js";
import { type Received, signedWith, startReceiver } from "../../platform/events/webhook-receiver.js";
import { createRequest, expectStatus, setUpStandard } from "./fixtures.js";

const signed = (received: Received) => signedWith(SECRET, received);

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** the data fields of PRE_AUTH_RESULT, as the spec lists them */
const DATA_FIELDS = [
  "pre_auth_internal_id",
  "transaction_id",
  "authorization_number",
  "nphies_reopen_at",
  "nphies_reopen_reason",
  "submitter_erp_id",
  "approval_remarks",
  "referral_remarks",
  "internal_referral_notes",
  "is_referred",
  "internal_notes",
  "request_alerts",
  "status",
  "reviewer_erp_id",
  "member_id",
  "source",
  "is_emergency",
  "is_new_born",
  "is_maternity",
  "related_authorization_number",
  "claim_type",
  "treatment_date",
  "period_start_date",
  "doctor_id",
  "doctor_name",
  "doctor_speciality",
  "nphies_bundle_id",
  "provider_system_id",
  "provider_comment",
  "ERP_user_id",
  "price_list_level",
  "patient_id",
  "medical_provider_cchi_no",
  "ph_erp_id",
  "currency",
  "currency_rate",
  "is_reviewer_accepted_as_road_traffic_accident",
  "is_traffic_accident",
  "assign_to_erp_id",
  "additional_remarks",
  "total_recovery_utilized",
  "total_exgratia_utilized",
  "benefit_code",
  "is_referral",
  "referral_provider_cchi_code",
  "valid_days",
  "referred_at",
  "encounter",
  "items_decisions",
];
const ITEM_FIELDS = [
  "item_erp_id",
  "service_code",
  "duration",
  "frequency",
  "admission_date",
  "discharge_date",
  "approved_quantity",
  "approved_amount",
  "price",
  "request_amount",
  "provider_deductible_amount",
  "net_request_amount",
  "rejected_amount",
  "price_rejected_amount",
  "net_payable",
  "decision",
  "warning_message",
  "benefit_code",
  "sub_benefit_code",
  "reason_code",
  "svc_ai_alert",
  "svc_ai_score",
  "pbm_drug_info",
];
const REASON_FIELDS = [
  "svc_ai_code",
  "svc_ai_description",
  "svc_ai_message",
  "nphies_code",
  "nphies_description",
  "special_case_amount",
  "erp_code",
  "is_approved",
  "source",
];

describe("the whole story of a prior authorization, with a real webhook receiver", () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startTestApp();
  });
  after(() => ctx.close());

  it("create, review, consumption, reopen, communication, cancel: every event signed and in order", async () => {
    const receiver = await startReceiver();
    try {
      const tenant = ctx.tenant;
      await setUpStandard(tenant);
      for (const hook_type of ["PRE_AUTH_RESULT", "REFERRED", "REOPENED", "COMMUNICATION"])
        await expectStatus(
          tenant.call("POST", "/webhook/create", {
            webhook_url: `${receiver.url}?hook=${hook_type}`,
            hook_type,
            secret_token: SECRET,
          }),
          201,
        );
      const consumption = async () =>
        (
          await expectStatus(
            tenant.call("GET", "/policy/patient/consumption/get?ph_erp_id=PH1&policy_no=POL1&member_id=M1"),
            200,
          )
        ).amount_utilized;

      const { body } = await createRequest(tenant, {
        doctor_name: "Dr. Huda",
        encounter: { encounter_id: "ENC-1", encounter_department: "Family medicine" },
      });
      const tx = body.transaction_id;
      const [result] = await receiver.waitFor(1);
      assert.ok(result && signed(result), "PRE_AUTH_RESULT is signed");
      assert.equal(result.json.event_type, "PRE_AUTH_RESULT");
      const data = result.json.data;
      assert.deepEqual(Object.keys(data), DATA_FIELDS);
      assert.equal(data.status, "PENDING");
      assert.equal(data.source, "ENGINE");
      assert.equal(data.transaction_id, tx);
      assert.equal(data.doctor_name, "Dr. Huda");
      assert.equal(data.doctor_id, null, "unset values are null");
      const encounter = data.encounter as Record<string, unknown>;
      assert.equal(encounter.encounter_id, "ENC-1");
      assert.equal(encounter.encounter_class, "AMB");
      const items = data.items_decisions as Record<string, unknown>[];
      assert.deepEqual(Object.keys(items[0] ?? {}), ITEM_FIELDS);
      assert.deepEqual(
        [
          items[0]?.approved_amount,
          items[0]?.price,
          items[0]?.request_amount,
          items[0]?.price_rejected_amount,
        ],
        [200, 200, 250, 50],
      );
      const reason = ((items[0]?.reason_code ?? []) as Record<string, unknown>[])[0] ?? {};
      assert.deepEqual(Object.keys(reason), REASON_FIELDS);
      assert.equal(reason.nphies_code, "NDC079");
      assert.equal(typeof reason.nphies_description, "string");
      assert.equal(items[1]?.decision, "APPROVED");
      assert.equal(await consumption(), 300);

      // referred, then accepted
      await expectStatus(
        tenant.call("PATCH", `/approval-request/update/${tx}`, {
          status: "REFERRED",
          erp_reviewer_id: "rev1",
          referral_cchi_code: "CCHI-2",
          referral_valid_days: 14,
        }),
        200,
      );
      await expectStatus(
        tenant.call("PATCH", `/approval-request/update/${tx}`, {
          status: "ACCEPTED",
          erp_reviewer_id: "rev1",
        }),
        200,
      );
      await expectStatus(
        tenant.call("PATCH", `/approval-request/reopen/${tx}`, {
          nphies_reopen_reason: "ADJUDICATION",
          nphies_reopen_at: "2026-03-15T09:00:00.000Z",
          username: "rev1",
        }),
        200,
      );
      await expectStatus(
        tenant.call("POST", "/communication/create", {
          transaction_id: tx,
          title: "More information",
          content: "x-ray attached",
        }),
        201,
      );
      await expectStatus(tenant.call("PATCH", `/approval-request/cancel/${tx}`), 200);
      assert.equal(await consumption(), 0, "a cancelled request uses nothing");

      const events = await receiver.waitFor(8);
      await sleep(300); // nothing more is due
      assert.equal(receiver.received.length, 8);
      assert.ok(events.every(signed), "every delivery is signed");
      // each webhook gets its events in the order they happened (webhooks are independent of each other)
      const to = (hook: string) => events.filter((e) => e.path.endsWith(`hook=${hook}`));
      assert.deepEqual(
        to("PRE_AUTH_RESULT").map((e) => [e.json.event_type, e.json.data.status, e.json.data.source]),
        [
          ["PRE_AUTH_RESULT", "PENDING", "ENGINE"],
          ["PRE_AUTH_RESULT", "REFERRED", "REVIEWER"],
          ["PRE_AUTH_RESULT", "ACCEPTED", "REVIEWER"],
          ["PRE_AUTH_RESULT", "PENDING", "ENGINE"],
          ["PRE_AUTH_RESULT", "PENDING", "ENGINE"],
        ],
      );
      const [referred] = to("REFERRED");
      const [reopened] = to("REOPENED");
      const [communication] = to("COMMUNICATION");
      assert.deepEqual(
        [referred?.json.event_type, reopened?.json.event_type, communication?.json.event_type],
        ["REFERRED", "REOPENED", "COMMUNICATION"],
      );
      const referral = referred?.json.data as Record<string, unknown>;
      assert.deepEqual(
        [referral.is_referred, referral.referral_provider_cchi_code, referral.valid_days],
        [true, "CCHI-2", 14],
      );
      assert.equal(
        (reopened?.json.data as { nphies_reopen_reason?: string } | undefined)?.nphies_reopen_reason,
        "ADJUDICATION",
      );
      assert.equal(
        (communication?.json.data as { communication?: { title: string } } | undefined)?.communication?.title,
        "More information",
      );
      assert.equal(new Set(events.map((e) => e.headers["webhook-id"])).size, 8, "each event has its own id");
    } finally {
      await receiver.close();
    }
  });
});
