import { consoleRoutes } from "../modules/console/routes.js";
import type { SurfacePlugin } from "./surface.js";

/** The reviewer console, /{tenant}/console: its own sign-in, errors as pages (README "Reviewer console") */
export const reviewerConsole: SurfacePlugin = async (surface, deps) => {
  await surface.register(consoleRoutes, { ...deps, prefix: "/:tenant/console" });
};
