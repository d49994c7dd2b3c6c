import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance, RouteOptions } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../db/db.js";
import type { JobQueue } from "../jobs/queue.js";
import type { ErrorShape } from "./errors.js";

/** what every area receives: its dependencies, passed in explicitly */
export interface ModuleDeps {
  db: Db;
  jobs: JobQueue;
  config: Config;
}

/**
 * An area of a surface: one typed plugin holding its routes and the start-up and shutdown work they need
 * (started in its body, stopped by its own `onClose` hook). `Extra` is what an area needs beyond ModuleDeps.
 */
export type AreaPlugin<Extra extends object = Record<never, never>> = FastifyPluginAsyncTypebox<
  ModuleDeps & Extra
>;

/** gives every route of this plugin the error body shape of its area (the spec differs per area) */
export function useErrorShape(app: FastifyInstance, errorShape: ErrorShape): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    route.config = { ...(route.config ?? {}), errorShape } as RouteOptions["config"];
  });
}
