import type { AreaPlugin } from "../../platform/http/plugin.js";
import { errorResponses } from "../../platform/http/schemas.js";
import { HistoryPage, HistoryQuery, HistorySyncBody, HistorySynced, MemberParams } from "./schemas.js";
import { findHistory, syncHistory } from "./service.js";

const tags = ["History synchronization"];

export const memberHistoryRoutes: AreaPlugin = async (app, { db }) => {
  for (const [path, kind, what] of [
    ["/history/claims/sync", "CLAIM", "claims"],
    ["/history/approval-requests/sync", "PREAUTH", "prior-authorization requests"],
  ] as const) {
    app.post(
      path,
      {
        bodyLimit: 16 * 1024 * 1024,
        schema: {
          tags,
          summary: `Load a member's past ${what} (by reference: loading one again replaces it)`,
          body: HistorySyncBody,
          response: { 200: HistorySynced, ...errorResponses([400, 401, 413]) },
        },
      },
      async (request) => ({
        member_id: request.body.member_id,
        ...(await syncHistory(db, request.actor, kind, request.body)),
        code: 200,
        message: "History synchronized successfully",
      }),
    );
  }

  app.get(
    "/history/member/:member_id",
    {
      schema: {
        tags,
        summary: "A member's loaded history",
        params: MemberParams,
        querystring: HistoryQuery,
        response: { 200: HistoryPage, ...errorResponses([400, 401]) },
      },
    },
    async (request) => {
      const page = await findHistory(db, request.tenant.id, request.params.member_id, request.query);
      return { total_count: page.total, data: page.rows };
    },
  );
};
