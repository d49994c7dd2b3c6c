export { memoryTokenStore, RENEW_BEFORE_EXPIRY_MS, type StoredToken, type TokenStore } from "./auth.js";
export type { BatchOperations, PageOptions, UploadOptions, WaitOptions } from "./batches.js";
export { createMizanClient, type MizanClient, type MizanClientOptions } from "./client.js";
export { MizanApiError, MizanAuthError, MizanError, MizanNetworkError } from "./errors.js";
export type {
  BatchAccepted,
  BatchPaths,
  BatchResultClaim,
  BatchResultsPage,
  BatchStatus,
  MemberRanking,
  ProviderRanking,
  ResultsFilter,
  TenantPaths,
} from "./paths.js";
export { DEFAULT_RETRY, type RetryOptions, retryAfterMs } from "./retry.js";
export type { components, operations, paths } from "./schema.js";
export { requestIdOf, unwrap } from "./unwrap.js";
export type { BatchSource } from "./upload-body.js";
export {
  type VerifyOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookVerification,
} from "./webhooks.js";

export const VERSION = "0.1.0";
