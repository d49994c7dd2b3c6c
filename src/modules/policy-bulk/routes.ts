import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import {
  AsyncBulkBody,
  BulkAccepted,
  BulkJobParams,
  BulkJobView,
  BulkSummary,
  SyncBulkBody,
} from "./schemas.js";
import * as bulk from "./service.js";

const tags = ["Policy"];
/** a patient is a few hundred bytes of JSON: room for the schema's maximum counts */
const SYNC_BODY_LIMIT = 16 * 1024 * 1024;
const ASYNC_BODY_LIMIT = 160 * 1024 * 1024;

export const policyBulkRoutes: AreaPlugin = async (app, { db, jobs }) => {
  app.post(
    "/policy/bulk-patient-to-policy",
    {
      bodyLimit: SYNC_BODY_LIMIT,
      schema: {
        tags,
        summary: "Import patients into a policy now, in one transaction (up to 5,000)",
        body: SyncBulkBody,
        response: { 200: BulkSummary, ...errorResponses([400, 401, 404, 409, 413]) },
      },
    },
    async (request) => {
      const summary = await bulk.importPatientsNow(db, request.actor, request.body);
      return { ...summary, code: 200, message: "Bulk import finished" };
    },
  );

  app.post(
    "/policy/async-bulk-patient-to-policy",
    {
      bodyLimit: ASYNC_BODY_LIMIT,
      schema: {
        tags,
        summary: "Import patients into a policy in the background (up to 200,000)",
        body: AsyncBulkBody,
        response: { 202: BulkAccepted, ...errorResponses([400, 401, 404, 413]) },
      },
    },
    async (request, reply) => {
      const jobId = await bulk.startBulkImport(db, jobs, request.actor, request.body);
      return reply.status(202).send({
        job_id: jobId,
        message: "Bulk import accepted; its summary is sent as a POLICY webhook event",
        status_url: `${request.url.split("/policy/")[0]}/policy/bulk-job/${jobId}`,
      });
    },
  );

  app.get(
    "/policy/bulk-job/:job_id",
    {
      schema: {
        tags,
        summary: "Progress and summary of an asynchronous bulk import",
        params: BulkJobParams,
        response: { 200: BulkJobView, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const job = await bulk.getBulkJob(db, request.tenant.id, request.params.job_id);
      return { ...job, code: 200, message: "Bulk import job retrieved successfully" };
    },
  );
};
