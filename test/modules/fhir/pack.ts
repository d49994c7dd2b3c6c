import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TenantClient } from "../../helpers.js";
import { createHolder } from "../policies/fixtures.js";
import { expectStatus } from "../prior-auth/fixtures.js";
import { type Json, PAYER } from "./bundles.js";
import { createPriceList } from "./fixtures.js";
import { PACK_DIR } from "./nphies-rules/terminology.js";

/**
 * The official NPHIES implementer pack's sample messages (../shared/reference/nphies/samples), read as
 * they are, and a tenant that holds the members, policies, providers and prices they name, derived from
 * the samples themselves: so that the pack's requests are adjudicated, not only answered.
 */

export const SAMPLES_DIR = join(PACK_DIR, "samples");
export const packAbsent = existsSync(SAMPLES_DIR)
  ? false
  : `the NPHIES implementer pack is absent (${SAMPLES_DIR}): its samples are not driven`;

/** a sample by its number ("5a"), parsed; a new object each time */
export function sample(prefix: string): Json {
  const file = readdirSync(SAMPLES_DIR).find((name) => name.startsWith(`${prefix} `));
  if (file === undefined) throw new Error(`no sample ${prefix}`);
  return JSON.parse(readFileSync(join(SAMPLES_DIR, file), "utf8"));
}

/** the samples' numbers, by what they are */
export const PACK = {
  claims: ["1", "2a", "4", "5a", "6", "7a", "8", "9", "10", "11"],
  eligibility: ["14a", "15a"],
  /** messages a payer does not receive (sent to NPHIES, or by the payer itself) */
  notForPayer: [
    "12a",
    "12b",
    "13a",
    "13b",
    "14b",
    "15b",
    "15c",
    "17b",
    "18a",
    "2b",
    "2d",
    "2e",
    "5b",
    "7b",
    "9c",
  ],
} as const;

/** the response each request sample of the pack is answered with */
export const PACK_ANSWERS: Record<string, string> = {
  "2a": "2b",
  "5a": "5b",
  "7a": "7b",
  "14a": "14b",
  "15a": "15b",
};

/** the first resource of a type in a bundle */
function resourceOf(bundle: Json, type: string): Json {
  const found = bundle.entry.find((entry: Json) => entry.resource.resourceType === type)?.resource;
  if (found === undefined) throw new Error(`no ${type} in the sample`);
  return found;
}
const byUrl = (bundle: Json, reference: string | undefined) =>
  bundle.entry.find((entry: Json) => entry.fullUrl === reference)?.resource;
const classOf = (coverage: Json, type: string): string | undefined =>
  coverage.class?.find((entry: Json) => entry.type.coding.some((coding: Json) => coding.code === type))
    ?.value;

interface PackMember {
  memberId: string;
  nationalId: string;
  gender: string;
  birthDate: string;
  holder: string;
  policy: string;
}

/** who, what and where the claim samples name */
function worldOf(prefixes: readonly string[]) {
  const members = new Map<string, PackMember>();
  const providers = new Set<string>();
  const prices = new Map<string, Map<string, number>>();
  for (const prefix of prefixes) {
    const bundle = sample(prefix);
    const claim = resourceOf(bundle, "Claim");
    const coverage = resourceOf(bundle, "Coverage");
    const beneficiary = byUrl(bundle, coverage.beneficiary.reference);
    const licence = byUrl(bundle, claim.provider.reference).identifier[0].value;
    providers.add(licence);
    const memberId = coverage.identifier[0].value;
    const holder = classOf(coverage, "group") ?? "PACK-HOLDER";
    members.set(memberId, {
      memberId,
      nationalId: beneficiary.identifier[0].value,
      gender: beneficiary.gender === "male" ? "MALE" : "FEMALE",
      birthDate: beneficiary.birthDate,
      holder,
      policy: classOf(coverage, "plan") ?? holder,
    });
    const list = prices.get(licence) ?? new Map<string, number>();
    for (const item of claim.item) {
      const code = item.productOrService.coding.at(-1).code;
      list.set(code, item.unitPrice.value * (item.factor ?? 1));
    }
    prices.set(licence, list);
  }
  return { members, providers, prices };
}

/**
 * Sets up `tenant` with what the claim samples name: each Coverage's member (its member id, the
 * beneficiary's iqama as national id), the policy its classes name (in force 2021-2022, the samples'
 * years), each provider licence, and price lists at the prices claimed.
 */
export async function setUpPackWorld(tenant: TenantClient): Promise<void> {
  const { members, providers, prices } = worldOf(PACK.claims);
  for (const licence of providers)
    await expectStatus(
      tenant.call("POST", "/medical-provider/create", {
        name: `Provider ${licence}`,
        city: "Riyadh",
        cchi_no: licence,
      }),
      201,
    );
  for (const holder of new Set([...members.values()].map((member) => member.holder)))
    await createHolder(tenant, holder);
  for (const member of members.values()) {
    await expectStatus(
      tenant.call("POST", "/member/create", {
        member_id: member.memberId,
        national_id: member.nationalId,
        gender: member.gender,
        marital_status: "MARRIED",
        date_of_birth: `${member.birthDate}T00:00:00.000Z`,
      }),
      201,
    );
    // a policy of the member's own under the group the Coverage names: found as the one in force
    const key = { ph_erp_id: member.holder, policy_no: `${member.policy}-${member.memberId}` };
    await expectStatus(
      tenant.call("POST", "/policy/create", {
        ...key,
        start_date: "2021-01-01",
        end_date: "2022-12-31",
        created_date: "2020-12-15",
        status: "ACTIVE",
        add_patient_to_policy: {
          member_id: member.memberId,
          category_code: "A",
          start_date: "2021-01-01",
          end_date: "2022-12-31",
        },
      }),
      201,
    );
    await expectStatus(
      tenant.call("POST", "/policy/template/category", {
        ...key,
        category_code: "A",
        amount_eligible: 1_000_000,
      }),
      201,
    );
  }
  for (const [licence, list] of prices)
    await createPriceList(tenant, {
      provider: licence,
      erpId: `PL-${licence}`,
      from: 2021,
      to: 2022,
      prices: [...list],
    });
}

const PROVIDER_LICENSE = "http://nphies.sa/license/provider-license";
const PAYER_LICENSE = "http://nphies.sa/license/payer-license";

/** a sample re-addressed from `provider` to this payer (PAYER), under a new MessageHeader id */
function readdressed(prefix: string, provider: string): Json {
  const message = sample(prefix);
  const header = message.entry[0].resource;
  header.id = randomUUID();
  header.sender.identifier = { system: PROVIDER_LICENSE, value: provider };
  header.destination[0].receiver.identifier = { system: PAYER_LICENSE, value: PAYER };
  for (const entry of message.entry as { resource: Json }[])
    for (const identifier of entry.resource.identifier ?? [])
      if (identifier.system === PROVIDER_LICENSE) identifier.value = provider;
      else if (identifier.system === PAYER_LICENSE) identifier.value = PAYER;
  return message;
}

/** the pack's Task message (17a cancel, 9b status check) about `claim` (a Claim identifier) */
export function taskMessage(prefix: string, claim: Json, provider = "CCHI-1", code?: string): Json {
  const message = readdressed(prefix, provider);
  const task = message.entry.find((entry: Json) => entry.resource.resourceType === "Task").resource;
  task.focus.identifier = { ...claim };
  if (code !== undefined) task.code.coding[0].code = code;
  return message;
}

/** the pack's communication (18b solicited, 18c unsolicited, with its PDF) about `claim` */
export function communicationMessage(prefix: string, claim: Json, provider = "CCHI-1"): Json {
  const message = readdressed(prefix, provider);
  message.entry.find(
    (entry: Json) => entry.resource.resourceType === "Communication",
  ).resource.about[0].identifier = { ...claim };
  return message;
}
