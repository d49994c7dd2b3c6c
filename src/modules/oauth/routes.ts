import Type from "typebox";
import { type AreaPlugin, useErrorShape } from "../../platform/http/plugin.js";
import { issueToken } from "./service.js";
import type { TokenService } from "./tokens.js";

const OAuthError = Type.Object({ error: Type.String(), error_description: Type.String() });

/** POST /v1/auth/token ({auth_url}/v1/auth/token, docs/operator-contract.md section 3) */
export const oauthRoutes: AreaPlugin<{ tokens: TokenService }> = async (app, { db, tokens }) => {
  useErrorShape(app, "oauth");
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body.toString())));
    },
  );
  app.post(
    "/v1/auth/token",
    {
      schema: {
        tags: ["OAuth"],
        summary:
          "An access token for the batch claims service (client credentials; form fields or HTTP Basic)",
        consumes: ["application/x-www-form-urlencoded"],
        body: Type.Object({
          grant_type: Type.Optional(Type.String()),
          client_id: Type.Optional(Type.String()),
          client_secret: Type.Optional(Type.String()),
          scope: Type.Optional(Type.String()),
        }),
        response: {
          200: Type.Object({
            access_token: Type.String(),
            token_type: Type.String(),
            expires_in: Type.Integer(),
            scope: Type.String(),
          }),
          400: OAuthError,
          401: OAuthError,
        },
      },
    },
    async (request, reply) => {
      const token = await issueToken(db, tokens, {
        ...request.body,
        authorization: request.headers.authorization,
      });
      // RFC 6749 section 5.1: tokens are not to be cached by anyone in between
      return reply.header("cache-control", "no-store").header("pragma", "no-cache").send(token);
    },
  );
};
