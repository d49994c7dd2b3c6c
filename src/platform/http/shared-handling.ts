import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import { registerErrorHandler } from "./error-handler.js";
import { validatorCompiler } from "./validation.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** a caller's X-Request-ID is kept when it is sane, so one id follows a request across systems */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * What every surface shares, set once on the root: TypeBox validation, the JSON parser, the one error
 * handler (each route answers in its surface's or area's error shape), and the request id on every answer.
 */
export function useSharedHandling(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  // operations without a body (cancel, the webhook test) are often sent with a JSON content type and
  // nothing after it: an empty JSON body is no body, anything else is parsed as usual
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text === "") return done(null, undefined);
    return parseJson(request, text, done);
  });
  registerErrorHandler(app);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
}
