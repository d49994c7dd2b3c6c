import { randomBytes } from "node:crypto";
import { networkRepo } from "../modules/networks/repo.js";
import { changeNetworkProvider, createNetwork } from "../modules/networks/service.js";
import { createPolicy } from "../modules/policies/service.js";
import { importPatientsNow } from "../modules/policy-bulk/service.js";
import { createPolicyHolder } from "../modules/policy-holders/service.js";
import { addBenefit, addCategory, addSubBenefit } from "../modules/policy-templates/service.js";
import { createPriceList } from "../modules/price-lists/service.js";
import { createProvider } from "../modules/providers/service.js";
import { userRepo } from "../modules/users/repo.js";
import { createUser } from "../modules/users/service.js";
import type { TenantActor } from "../platform/audit/audit.js";
import type { Db } from "../platform/db/db.js";
import { contractPrice, HOLDERS, NETWORKS, POLICIES, PROVIDERS, SERVICES, TEMPLATES } from "./catalogue.js";
import { type DemoMember, patientOf } from "./people.js";
import { isConflict, type Tally } from "./tally.js";

/** The demo's reference data, written through the domain services as the API would write it. */

const YEAR_2026 = { start: "2026-01-01T00:00:00.000Z", end: "2026-12-31T23:59:59.999Z" };

export async function seedNetworksAndProviders(db: Db, actor: TenantActor, tally: Tally): Promise<void> {
  for (const name of NETWORKS) await tally.ensure("networks", () => createNetwork(db, actor, { name }));
  for (const { networks: _n, priceFactor: _f, services: _s, batchType: _b, ...input } of PROVIDERS)
    await tally.ensure("medical providers", () => createProvider(db, actor, input));
  for (const name of NETWORKS) {
    const network = await networkRepo.findByName(db, actor.tenantId, name);
    if (network === undefined) throw new Error(`network ${name} is missing`);
    for (const provider of PROVIDERS.filter((p) => p.networks.includes(name)))
      await tally.ensure("network memberships", () =>
        changeNetworkProvider(db, actor, "add", network.id, provider.cchi_no),
      );
  }
  for (const provider of PROVIDERS)
    await tally.ensure("price lists", () =>
      createPriceList(db, actor, {
        provider_cchi_id: provider.cchi_no,
        price_list_erp_id: `PL-2026-${provider.cchi_no}`,
        start_date: YEAR_2026.start,
        end_date: YEAR_2026.end,
        price_items: provider.services.map((code) => ({
          department: SERVICES[code].department,
          provider_service_Code: code,
          provider_service_description: SERVICES[code].description,
          provider_service_type: SERVICES[code].type === "PHARMACEUTICAL" ? "MEDICATION" : "SERVICE",
          nphies_code: SERVICES[code].nphiesCode,
          nphies_type: SERVICES[code].type === "PHARMACEUTICAL" ? "medication-codes" : "services",
          price: contractPrice(provider.cchi_no, code),
          price_item_erp_id: `PI-2026-${provider.cchi_no}-${code}`,
          date_start: YEAR_2026.start,
          date_end: YEAR_2026.end,
        })),
      }),
    );
}

export async function seedPolicies(db: Db, actor: TenantActor, tally: Tally): Promise<void> {
  for (const holder of HOLDERS)
    await tally.ensure("policy holders", () => createPolicyHolder(db, actor, holder));
  for (const year of [2026, 2025] as const) {
    const key = { ph_erp_id: POLICIES[year].ph_erp_id, policy_no: POLICIES[year].policy_no };
    await tally.ensure("policies", () => createPolicy(db, actor, POLICIES[year]));
    for (const [category_code, category] of Object.entries(TEMPLATES[year])) {
      const inCategory = { ...key, category_code };
      await tally.ensure("template entries", () =>
        addCategory(db, actor, { ...inCategory, amount_eligible: category.limit }),
      );
      for (const benefit of category.benefits) {
        const benefitKey = { ...inCategory, benefit_code: benefit.code };
        await tally.ensure("template entries", () =>
          addBenefit(db, actor, {
            ...benefitKey,
            benefit_description: benefit.description,
            limit: benefit.limit,
          }),
        );
        for (const sub of benefit.subBenefits)
          await tally.ensure("template entries", () =>
            addSubBenefit(db, actor, {
              ...benefitKey,
              sub_benefit_code: sub.code,
              sub_benefit_description: sub.description,
              limit: sub.limit,
            }),
          );
      }
    }
  }
}

/** links every member to its policy in one import per policy; members already linked are counted as there */
export async function seedMembers(
  db: Db,
  actor: TenantActor,
  tally: Tally,
  members: readonly DemoMember[],
): Promise<void> {
  for (const year of [2026, 2025] as const) {
    const patients = members.flatMap((member, index) =>
      member.policyYear === year ? [patientOf(member, index)] : [],
    );
    const key = { ph_erp_id: POLICIES[year].ph_erp_id, policy_no: POLICIES[year].policy_no };
    try {
      const summary = await importPatientsNow(db, actor, { ...key, patients });
      tally.count("members on policies", summary.created + summary.updated, summary.failed);
    } catch (error) {
      if (!isConflict(error)) throw error;
      tally.count("members on policies", 0, patients.length);
    }
  }
}

export const REVIEWERS = [
  { username: "reviewer", name: "Reem Al-Qahtani", email: "reviewer@demo.mizan.local" },
  { username: "analyst", name: "Turki Al-Mutairi", email: "analyst@demo.mizan.local" },
] as const;

/** the reviewer users, each with a random password: answered only for the users this run created */
export async function seedReviewers(
  db: Db,
  actor: TenantActor,
  tally: Tally,
): Promise<{ username: string; password: string }[]> {
  const created: { username: string; password: string }[] = [];
  for (const reviewer of REVIEWERS) {
    // checked first: hashing a password that is then refused costs a tenth of a second for nothing
    if ((await userRepo.findByUsername(db, actor.tenantId, reviewer.username)) !== undefined) {
      tally.count("reviewer users", 0, 1);
      continue;
    }
    const password = randomBytes(12).toString("base64url");
    if (await tally.ensure("reviewer users", () => createUser(db, actor, { ...reviewer, password })))
      created.push({ username: reviewer.username, password });
  }
  return created;
}
