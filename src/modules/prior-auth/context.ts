import type { TenantMode } from "../../config.js";
import { halalasOf } from "../../engine/money.js";
import type {
  BenefitLimits,
  ContractPrice,
  Coverage,
  EngineContext,
  EngineRequest,
  RequestItem,
  ServiceType,
} from "../../engine/prior-auth/types.js";
import type { Queryable } from "../../platform/db/db.js";
import { engineSettings } from "../adjudication-settings/service.js";
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
    authorizationNumber: input.authorization_number,
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

/**
 * Whose age and gender the clinical checks read: the member on file, or for a newborn covered under its
 * mother's membership (is_new_born) the newborn the request describes.
 */
export function patientFactsOf(
  member: { gender: "MALE" | "FEMALE"; date_of_birth: Date },
  input: Pick<CreateInput, "is_new_born" | "member_gender" | "member_dob">,
) {
  return input.is_new_born
    ? { gender: input.member_gender, dateOfBirth: new Date(input.member_dob) }
    : { gender: member.gender, dateOfBirth: member.date_of_birth };
}

/** who and what a run of the engine is about, as create and the re-runs (reopen, communication) know it */
export interface Subject {
  mode: TenantMode;
  member: { pk: number; memberId: string };
  /** standard mode: the policy of the request (lightweight: undefined, no coverage checks) */
  policy: PolicyRow | undefined;
  providerId: number | undefined;
  providerCchiNo: string;
  /** a re-run leaves the request's own earlier decisions out of utilization and history */
  exceptPriorAuthId: number | null;
}

/**
 * What the engine reads besides the request and the member's own facts, and the request's service codes
 * never seen with its primary diagnosis (stored with the request).
 */
export type LoadedContext = Omit<EngineContext, "member"> & { newPairedServices: string[] };

/** standard mode: the member's link to the policy, the network, the category's limits and what is used */
export async function loadCoverage(
  db: Queryable,
  tenantId: number,
  subject: Subject,
  policy: PolicyRow,
  /** a claim: the authorization it is billed under (its prior authorization's use no longer counts) */
  billedUnder: string | null = null,
): Promise<Coverage> {
  const memberPk = subject.member.pk;
  const [link, category, usage] = await Promise.all([
    patientLinkRepo.findForAdjudication(db, policy.id, memberPk, subject.providerCchiNo),
    templateRepo.loadCategoryOfMember(db, policy.id, memberPk),
    patientLinkRepo.utilization(db, tenantId, memberPk, policy.id, subject.exceptPriorAuthId, billedUnder),
  ]);
  const policyFacts = { status: policy.status, startDate: policy.start_date, endDate: policy.end_date };
  if (link === undefined)
    return { policy: policyFacts, link: undefined, providerInNetwork: undefined, category: undefined };
  const used = foldUtilization(usage);
  return {
    policy: policyFacts,
    link: {
      status: link.status,
      startDate: link.start_date,
      endDate: link.end_date,
      categoryCode: link.category_code,
    },
    providerInNetwork: link.provider_in_network ?? undefined,
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

/** the code of the request's primary diagnosis (checkRequest made sure there is exactly one) */
export const primaryDiagnosisOf = (request: EngineRequest): string =>
  request.diagnoses.find((diagnosis) => diagnosis.type === "primary")?.code ?? "";

/**
 * Everything the engine reads besides the request and the member's facts: the coverage (standard mode),
 * prices, the member's history and activity, peer statistics, diagnosis-service pairs, loaded edits and
 * the tenant's settings. The statements are all sent at once: on the embedded database they cross to its
 * thread together, on PostgreSQL they queue on the transaction's connection, with no round trip between.
 */
export async function loadEngineContext(
  db: Queryable,
  tenantId: number,
  subject: Subject,
  request: EngineRequest,
): Promise<LoadedContext> {
  const serviceCodes = request.items.map((item) => item.serviceCode);
  const primary = primaryDiagnosisOf(request);
  const codes = request.diagnoses.map((diagnosis) => diagnosis.code);
  const [coverage, prices, history, peers, pairs, diagnosisEdits, settings] = await Promise.all([
    subject.mode === "standard" && subject.policy !== undefined
      ? loadCoverage(
          db,
          tenantId,
          subject,
          subject.policy,
          request.transactionType === "CLAIM" ? (request.authorizationNumber ?? null) : null,
        )
      : undefined,
    loadPrices(db, tenantId, subject.providerId, request),
    contextRepo.history(db, tenantId, subject.member, request.treatmentDate, subject.exceptPriorAuthId),
    contextRepo.peers(db, tenantId, serviceCodes),
    contextRepo.pairs(db, tenantId, primary, serviceCodes),
    engineSettings.diagnosisEdits(db, tenantId, codes),
    engineSettings.settings(db, tenantId),
  ]);
  const since = request.treatmentDate.getTime() - 30 * DAY;
  const recent = history.filter((item) => item.date.getTime() >= since);
  return {
    mode: subject.mode,
    coverage,
    prices,
    history,
    peers,
    pairCounts: pairs.counts,
    pairTotal: pairs.total,
    newPairedServices: pairs.unseen,
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
