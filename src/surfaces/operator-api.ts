import type { FastifyInstance } from "fastify";
import { adminRoutes } from "../modules/admin/routes.js";
import { secretsEqual } from "../platform/auth/credentials.js";
import { AppError } from "../platform/http/errors.js";
import type { SurfacePlugin } from "./surface.js";

/** every route of `app` needs `Authorization: Bearer $MIZAN_ADMIN_TOKEN` */
function requireOperatorToken(app: FastifyInstance, adminToken: string): void {
  app.addHook("onRequest", async (request) => {
    const header = request.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
    if (!token || !secretsEqual(token, adminToken)) throw new AppError("E_UNAUTHORIZED_401");
  });
}

/** The operator API, /admin/v1 (docs/operator-contract.md section 5), served when MIZAN_ADMIN_TOKEN is set */
export const operatorApi: SurfacePlugin = async (surface, deps) => {
  const { adminToken } = deps.config;
  if (adminToken === undefined) return;
  requireOperatorToken(surface, adminToken);
  await surface.register(adminRoutes, deps);
};
