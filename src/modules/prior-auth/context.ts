import { halalasOf } from "../../engine/money.js";
import type {
  BenefitLimits,
  ContractPrice,
  Coverage,
  EngineContext,
  EngineRequest,
  MemberFacts,
  RequestItem,
  ServiceType,
} from "../../engine/prior-auth/types.js";
import type { Queryable } from "../../platform/db/db.js";
import { engineSettings } from "../adjudication-settings/engine-settings.js";
import { networkRepo } from "../networks/repo.js";
import { type PolicyRow, patientLinkRepo } from "../policies/repo.js";
import { foldUtilization } from "../policies/service.js";
import { templateRepo } from "../policy-templates/repo.js";
import { priceListRepo } from "../price-lists/repo.js";
import { contextRepo } from "./context-repo.js";
import type { CreateInput } from "./schemas.js";

/** the request as the engine reads it: amounts in halalas, dates as Dates, diagnoses without the dot */
export function engineRequestOf(input: CreateInput, diagnosisCodes: readonly string[]): EngineRequest {
  return {
    transactionType: input.transaction_type ?? "PREAUTH",
    treatmentDate: new Date(input.treatment_date),
    requestDate: new Date(input.request_date),
    claimType: input.claim_type,
    claimSubType: input.claim_sub_type,
    isEmergency: input.is_emergency ?? false,
    isMaternity: input.is_maternity ?? false,
    isNewBorn: input.is_new_born ?? false,
    providerCchiNo: input.medical_provider_cchi_no,
    diagnoses: input.diagnoses.map((diagnosis, index) => ({
      type: diagnosis.type,
      code: diagnosisCodes[index] as string,
      name: diagnosis.name ?? null,
    })),
    items: input.items.map(
      (item, index): RequestItem => ({
        index,
        serviceCode: item.service_code,
        serviceDescription: item.service_description,
        nphiesCode: item.nphies_code,
        nphiesType: item.nphies_type as ServiceType,
        serviceType: item.service_type as ServiceType,
        quantity: item.claimed_quantity ?? 1,
        unitAmount: halalasOf(item.claimed_amount ?? 0),
        duration: item.duration ?? null,
        frequency: item.frequency ?? null,
        admissionDate: item.admission_date === undefined ? null : new Date(item.admission_date),
        dischargeDate: item.discharge_date === undefined ? null : new Date(item.discharge_date),
        // an item without its own benefit falls under the request's
        benefitCode: item.benefit_code ?? input.benefit_code ?? null,
        subBenefitCode: item.sub_benefit_code ?? null,
      }),
    ),
  };
}

/** standard mode: the member's link to the policy, the network, the category's limits and what is used */
export async function loadCoverage(
  db: Queryable,
  tenantId: number,
  target: { memberPk: number; policy: PolicyRow; providerCchiNo: string },
  exceptPriorAuthId: number | null,
): Promise<Coverage> {
  const { policy } = target;
  const policyFacts = { status: policy.status, startDate: policy.start_date, endDate: policy.end_date };
  const link = await patientLinkRepo.find(db, policy.id, target.memberPk);
  if (link === undefined)
    return { policy: policyFacts, link: undefined, providerInNetwork: undefined, category: undefined };
  // one after another: inside a transaction the queries share one connection
  const providerInNetwork =
    link.network_code === null
      ? undefined
      : await networkRepo.containsProvider(db, tenantId, link.network_code, target.providerCchiNo);
  const category = await templateRepo.loadCategory(db, policy.id, link.category_code);
  const usage = await patientLinkRepo.utilization(
    db,
    tenantId,
    target.memberPk,
    policy.id,
    exceptPriorAuthId,
  );
  const used = foldUtilization(usage);
  return {
    policy: policyFacts,
    link: {
      status: link.status,
      startDate: link.start_date,
      endDate: link.end_date,
      categoryCode: link.category_code,
    },
    providerInNetwork,
    category:
      category === undefined
        ? undefined
        : {
            limit: halalasOf(category.amount_eligible),
            utilized: used.utilized,
            benefits: category.benefits.map(
              (benefit): BenefitLimits => ({
                code: benefit.benefit_code,
                limit: halalasOf(benefit.limit),
                utilized: used.byBenefit.get(benefit.benefit_code) ?? 0,
                subBenefits: benefit.sub_benefits.map((sub) => ({
                  code: sub.sub_benefit_code,
                  limit: halalasOf(sub.limit),
                  utilized: used.bySubBenefit.get(`${benefit.benefit_code}/${sub.sub_benefit_code}`) ?? 0,
                })),
              }),
            ),
          },
  };
}

/** contract prices per item at the provider (none when the provider is unknown) */
async function loadPrices(
  db: Queryable,
  tenantId: number,
  providerId: number | undefined,
  request: EngineRequest,
): Promise<(ContractPrice | undefined)[]> {
  if (providerId === undefined) return request.items.map(() => undefined);
  const found = await priceListRepo.findInForceForItems(
    db,
    tenantId,
    providerId,
    request.items,
    request.treatmentDate,
  );
  return request.items.map((_item, index) => {
    const price = found.get(index);
    return price === undefined
      ? undefined
      : {
          unitPrice: halalasOf(price.price),
          priceListErpId: price.price_list_erp_id,
          priceItemErpId: price.price_item_erp_id,
        };
  });
}

const DAY = 86_400_000;

/**
 * Everything the engine reads besides the coverage: prices, the member's history and activity, peer
 * statistics, diagnosis-service pairs, loaded edits and the tenant's settings. One query after another:
 * they run inside the request's transaction, on its one connection.
 */
export async function loadEngineContext(
  db: Queryable,
  tenantId: number,
  subject: {
    mode: EngineContext["mode"];
    member: MemberFacts & { pk: number | undefined; memberId: string };
    coverage: Coverage | undefined;
    providerId: number | undefined;
    exceptPriorAuthId: number | null;
  },
  request: EngineRequest,
): Promise<EngineContext> {
  const serviceCodes = request.items.map((item) => item.serviceCode);
  const primary = request.diagnoses.find((diagnosis) => diagnosis.type === "primary")?.code ?? "";
  const prices = await loadPrices(db, tenantId, subject.providerId, request);
  const history = await contextRepo.history(
    db,
    tenantId,
    subject.member,
    request.treatmentDate,
    subject.exceptPriorAuthId,
  );
  const peers = await contextRepo.peers(db, tenantId, serviceCodes);
  const pairs = await contextRepo.pairs(db, tenantId, primary, serviceCodes);
  const codes = request.diagnoses.map((diagnosis) => diagnosis.code);
  const diagnosisEdits = await engineSettings.diagnosisEdits(db, tenantId, codes);
  const settings = await engineSettings.settings(db, tenantId);
  const since = request.treatmentDate.getTime() - 30 * DAY;
  const recent = history.filter((item) => item.date.getTime() >= since);
  return {
    mode: subject.mode,
    member: { gender: subject.member.gender, dateOfBirth: subject.member.dateOfBirth },
    coverage: subject.coverage,
    prices,
    history,
    peers,
    pairCounts: pairs.counts,
    pairTotal: pairs.total,
    memberActivity: {
      requests: new Set(recent.map((item) => item.reference)).size,
      providers: new Set(
        recent.flatMap((item) => (item.providerCchiNo === null ? [] : [item.providerCchiNo])),
      ).size,
    },
    diagnosisEdits,
    settings: {
      autoApprovalThreshold: settings.autoApprovalThreshold,
      followUpDays: settings.followUpDays,
      duplicateWindowDays: settings.duplicateWindowDays,
    },
  };
}
