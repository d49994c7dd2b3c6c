import { bulkImportJob } from "./modules/policy-bulk/job.js";
import type { JobDefinition } from "./platform/jobs/queue.js";

/** every background job of the product, as app.ts lists every area's routes */
export const JOB_DEFINITIONS: readonly JobDefinition<never>[] = [bulkImportJob];
