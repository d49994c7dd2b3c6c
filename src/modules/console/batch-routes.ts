import type { FastifyInstance } from "fastify";
import type { ModuleDeps } from "../../platform/http/plugin.js";

/** the console's claims-batch pages (being built) */
export async function consoleBatchRoutes(_app: FastifyInstance, _deps: ModuleDeps): Promise<void> {}
