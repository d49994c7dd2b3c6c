import Type, { type Static } from "typebox";
import { Enum } from "../../platform/http/schemas.js";
import { RESULT_PAGE_CLAIMS } from "./repo.js";

export const BATCH_EVENTS = [
  "batch.queued",
  "batch.validating",
  "batch.processing",
  "batch.processing_update",
  "batch.validation_failed",
  "batch.completed",
  "batch.failed",
] as const;

export const Accepted = Type.Object({
  batch_id: Type.String(),
  batch_reference_id: Type.String(),
  status: Type.String(),
  total_claims: Type.Integer(),
  total_items: Type.Integer(),
  submitted_at: Type.String(),
  estimated_completion_time: Type.String(),
  webhook_url: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
});

export const BatchParams = Type.Object({ batch_id: Type.String({ maxLength: 64 }) });

const Summary = Type.Object({
  approved: Type.Integer(),
  flagged: Type.Integer(),
  rejected: Type.Integer(),
  FWA_cases: Type.Integer(),
});

export const BatchStatusView = Type.Object({
  batch_id: Type.String(),
  batch_reference_id: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  total_claims: Type.Integer(),
  total_items: Type.Integer(),
  processed_claims: Type.Integer(),
  processing_progress: Type.Integer({ description: "0-100" }),
  failed_claims: Type.Integer(),
  summary: Type.Union([Summary, Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  error_code: Type.Union([Type.String(), Type.Null()]),
  submitted_at: Type.String(),
  processed_at: Type.Union([Type.String(), Type.Null()]),
  results_available_until: Type.Union([Type.String(), Type.Null()]),
});

/** paging of results and rankings: JSON by page, or CSV of everything */
const PagedQuery = {
  format: Type.Optional(Enum(["json", "csv"] as const)),
  page: Type.Integer({ minimum: 1, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: RESULT_PAGE_CLAIMS, default: 100 }),
};
const PageMeta = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total_pages: Type.Integer(),
  total_results: Type.Integer(),
});

export const ResultsQuery = Type.Object({
  ...PagedQuery,
  filter: Type.Optional(Enum(["all", "approved", "flagged", "rejected"] as const)),
});
export type ResultsQueryInput = Static<typeof ResultsQuery>;

const Reason = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  code: Type.String(),
  description: Type.String(),
  cause: Type.String(),
  typeDecision: Type.String(),
  source: Type.String(),
});

export const Results = Type.Object({
  batch_id: Type.String(),
  batch_reference_id: Type.String(),
  status: Type.String(),
  processed_at: Type.Union([Type.String(), Type.Null()]),
  total_claims: Type.Integer(),
  processed_claims: Type.Integer(),
  failed_claims: Type.Integer(),
  summary: Summary,
  claims: Type.Array(
    Type.Object({
      claim_id: Type.String(),
      status: Type.String(),
      erp_claim_id: Type.String(),
      claim_items: Type.Array(
        Type.Object({
          erp_claim_item_id: Type.String(),
          status: Type.String(),
          ai_score: Type.Number(),
          reasons: Type.Array(Reason),
        }),
      ),
    }),
  ),
  meta: PageMeta,
});

export const RankingQuery = Type.Object(PagedQuery);
export type RankingQueryInput = Static<typeof RankingQuery>;

const RankingReason = Type.Object({ code: Type.String(), description: Type.String(), cause: Type.String() });

/** the figures of a ranked provider or member (amounts in the batch's currency, 2 decimals) */
const RankedFigures = {
  risk_score: Type.Number({
    description: "0..1: audit first what scores highest (docs/fwa.md says how it is made)",
  }),
  claims: Type.Integer(),
  items: Type.Integer(),
  claimed_amount: Type.Number(),
  flagged_claims: Type.Integer(),
  rejected_claims: Type.Integer(),
  flagged_amount: Type.Number({ description: "the amount of its flagged and rejected claims" }),
  reasons: Type.Array(RankingReason),
};
export const RankedProvider = Type.Object({
  provider_id: Type.String(),
  medical_provider_type: Type.String(),
  ...RankedFigures,
});
export const RankedMember = Type.Object({ member_id: Type.String(), ...RankedFigures });
export type RankedProviderView = Static<typeof RankedProvider>;
export type RankedMemberView = Static<typeof RankedMember>;

export const ProviderRanking = Type.Object({
  batch_id: Type.String(),
  providers: Type.Array(RankedProvider),
  meta: PageMeta,
});
export const MemberRanking = Type.Object({
  batch_id: Type.String(),
  members: Type.Array(RankedMember),
  meta: PageMeta,
});

export const SubscribeBody = Type.Object({
  webhook_url: Type.String({ minLength: 1, maxLength: 2048 }),
  events: Type.Array(Enum(BATCH_EVENTS), {
    minItems: 1,
    maxItems: BATCH_EVENTS.length,
    description: "batch.processing also brings batch.processing_update",
  }),
  secret: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 512 }), Type.Null()])),
});
export type SubscribeInput = Static<typeof SubscribeBody>;

export const Subscription = Type.Object({
  subscription_id: Type.String(),
  webhook_url: Type.String(),
  status: Type.String(),
  events: Type.Array(Type.String()),
  created_at: Type.String(),
});
export const SubscriptionList = Type.Object({ data: Type.Array(Subscription) });
export const SubscriptionParams = Type.Object({ subscription_id: Type.String({ maxLength: 64 }) });
