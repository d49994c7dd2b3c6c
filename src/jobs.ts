import type { Config } from "./config.js";
import { batchAnalysisJob } from "./modules/claims-batch/job.js";
import { subscriptionTargets } from "./modules/claims-batch/repo.js";
import { batchResultsRetentionJob } from "./modules/claims-batch/retention.js";
import { consoleSessionRetentionJob } from "./modules/console/sessions.js";
import { fhirMessageRetentionJob } from "./modules/fhir/retention.js";
import {
  legacyTrainingJob,
  modelTrainingJob,
  providerFeaturesRetentionJob,
} from "./modules/fwa-learning/job.js";
import { bulkImportJob } from "./modules/policy-bulk/job.js";
import { lightweightRetentionJob } from "./modules/prior-auth/retention.js";
import { webhookTargets } from "./modules/webhooks/repo.js";
import { eventDeliveryJob } from "./platform/events/delivery-job.js";
import { eventRetentionJob } from "./platform/events/retention.js";
import { deliverEventsTo } from "./platform/events/targets.js";
import type { JobDefinition } from "./platform/jobs/queue.js";

/**
 * Every background job of the product, as app.ts lists every area's routes; and the kinds of target events
 * go to, the modules' own, wired here because every process that emits or delivers events comes through here.
 */
export function jobDefinitions(
  config: Pick<Config, "webhooks" | "batches" | "fwaLearning">,
): readonly JobDefinition<never>[] {
  const eventTargets = deliverEventsTo([webhookTargets, subscriptionTargets]);
  return [
    bulkImportJob,
    eventDeliveryJob(config.webhooks, eventTargets),
    eventRetentionJob(config.webhooks.retentionDays),
    lightweightRetentionJob,
    batchAnalysisJob(config.batches),
    batchResultsRetentionJob,
    modelTrainingJob(config.fwaLearning),
    legacyTrainingJob,
    providerFeaturesRetentionJob,
    fhirMessageRetentionJob,
    consoleSessionRetentionJob,
  ];
}
