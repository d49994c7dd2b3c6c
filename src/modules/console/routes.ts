import { readFileSync } from "node:fs";
import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import { AppError } from "../../platform/http/errors.js";
import { type AreaPlugin, useErrorShape } from "../../platform/http/plugin.js";
import { TenantParam } from "../../platform/http/tenant-auth.js";
import { getMember } from "../members/service.js";
import { getConsumption } from "../policy-templates/service.js";
import { createCommunication } from "../prior-auth/communications/service.js";
import { createInformationRequest } from "../prior-auth/information-requests/service.js";
import {
  cancelPriorAuth,
  getPriorAuth,
  listReviewQueue,
  type QueueFilter,
  reopenPriorAuth,
  updatePriorAuth,
} from "../prior-auth/service.js";
import { createSignInGuards, signIn, sourceOf } from "../users/service.js";
import { type Reviewer, reviewerOf, writerOf } from "./access.js";
import { consoleBatchRoutes } from "./batch-routes.js";
import { decisionOf, type Form, informationRequestOf, reopenReasonOf } from "./forms.js";
import { consoleBase, sendPage } from "./layout.js";
import { type NoticeKey, noticeOf } from "./notices.js";
import { requireSameOrigin } from "./origin.js";
import { queuePage } from "./pages/queue.js";
import { requestPage } from "./pages/request.js";
import { signInPage } from "./pages/sign-in.js";
import { endSession, SESSION_COOKIE, SESSION_HOURS, startSession } from "./sessions.js";

/** the console's own files, read once: the only script and style sheet its pages may load */
const ASSETS: Record<string, { type: string; body: string }> = {
  "console.css": { type: "text/css; charset=utf-8", body: "" },
  "console.js": { type: "text/javascript; charset=utf-8", body: "" },
};
for (const [name, asset] of Object.entries(ASSETS))
  asset.body = readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8");

/** no inline script or style, nothing from elsewhere, never framed */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; " +
  "base-uri 'none'; frame-ancestors 'none'";

const TenantParams = Type.Object({ tenant: TenantParam });
const RequestParams = Type.Object({
  tenant: TenantParam,
  transaction_id: Type.String({ minLength: 1, maxLength: 255 }),
});
const FormBody = Type.Record(Type.String(), Type.String());
const SignInBody = Type.Object({
  username: Type.String({ maxLength: 255 }),
  password: Type.String({ maxLength: 1024 }),
});
const QueueQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal(""), Type.Literal("PENDING"), Type.Literal("REFERRED")])),
  provider: Type.Optional(Type.String({ maxLength: 255 })),
  member: Type.Optional(Type.String({ maxLength: 255 })),
  from: Type.Optional(Type.Union([Type.Literal(""), Type.String({ format: "mizan-date" })])),
  to: Type.Optional(Type.Union([Type.Literal(""), Type.String({ format: "mizan-date" })])),
  min_score: Type.Optional(Type.Union([Type.Literal(""), Type.Number({ minimum: 0, maximum: 1 })])),
  done: Type.Optional(Type.String({ maxLength: 200 })),
});
const hidden = { hide: true };

/**
 * The reviewer console (README "Reviewer console"): server-rendered pages under /{tenant}/console, a
 * session cookie after sign-in, every write a form carrying the session's CSRF token, and every action
 * through the same services as the API, with the signed-in user as the reviewer.
 */
export const consoleRoutes: AreaPlugin = async (app, { db, jobs, config }) => {
  useErrorShape(app, "console");
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
  );
  app.addHook("onSend", async (_request, reply) => {
    reply.header("content-security-policy", CSP);
    reply.header("x-content-type-options", "nosniff");
    reply.header("x-frame-options", "DENY");
    reply.header("referrer-policy", "same-origin");
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });

  const cookie = (tenant: string, value: string, maxAge: number) =>
    `${SESSION_COOKIE}=${value}; Path=${consoleBase(tenant)}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}` +
    (config.tls ? "; Secure" : "");

  const who = (request: FastifyRequest<{ Params: { tenant: string } }>) => reviewerOf(db, request);
  // this app's sign-in throttles and hashing slots (README "Reviewer console")
  const guards = createSignInGuards();
  const writer = (request: FastifyRequest<{ Params: { tenant: string }; Body: Form }>) =>
    writerOf(db, request);

  app.get(
    "/assets/:file",
    { schema: { ...hidden, params: Type.Object({ tenant: Type.String(), file: Type.String() }) } },
    async (request, reply) => {
      const asset = Object.hasOwn(ASSETS, request.params.file) ? ASSETS[request.params.file] : undefined;
      if (asset === undefined) throw new AppError("E_ROUTE_NOT_FOUND_404", "No such file");
      return reply.type(asset.type).header("cache-control", "public, max-age=3600").send(asset.body);
    },
  );

  app.get(
    "/",
    { schema: { ...hidden, params: TenantParams, querystring: QueueQuery } },
    async (request, reply) => {
      const found = await who(request);
      if (found === undefined) return sendPage(reply, 200, signInPage(request.params.tenant));
      const { tenant, context } = found;
      const query = request.query;
      const filter: QueueFilter = {
        status: query.status || undefined,
        provider: query.provider,
        member: query.member,
        from: query.from,
        to: query.to,
        minScore: query.min_score === "" || query.min_score === undefined ? undefined : query.min_score,
        limit: 200,
      };
      return sendPage(reply, 200, queuePage(context, filter, await listReviewQueue(db, tenant.id, filter)));
    },
  );

  app.post(
    "/sign-in",
    { schema: { ...hidden, params: TenantParams, body: SignInBody } },
    async (request, reply) => {
      requireSameOrigin(request);
      const name = request.params.tenant;
      const now = new Date();
      const outcome = await signIn(
        db,
        guards,
        {
          tenant: name,
          username: request.body.username,
          password: request.body.password,
          source: sourceOf(request.ip),
        },
        now,
      );
      if (outcome.kind === "throttled") {
        reply.header("retry-after", String(outcome.retryAfter));
        return sendPage(reply, 429, signInPage(name, { retryAfter: outcome.retryAfter }));
      }
      // the form again, as a page (200), saying only that it did not work: the same for an unknown tenant
      if (outcome.kind === "refused") return sendPage(reply, 200, signInPage(name, "refused"));
      const token = await startSession(db, outcome.user, now);
      reply.header("set-cookie", cookie(name, token, SESSION_HOURS * 3600));
      return reply.redirect(`${consoleBase(name)}/`, 303);
    },
  );

  app.post(
    "/sign-out",
    { schema: { ...hidden, params: TenantParams, body: FormBody } },
    async (request, reply) => {
      const { tenant, token } = await writer(request);
      await endSession(db, token);
      reply.header("set-cookie", cookie(tenant.name, "", 0));
      return reply.redirect(`${consoleBase(tenant.name)}/`, 303);
    },
  );

  /** the request's page, with what the reviewer just did or why it was refused */
  async function showRequest(
    reply: FastifyReply,
    found: Reviewer | undefined,
    tenantName: string,
    transactionId: string,
    notice?: { text: string; error: boolean; status: number },
  ) {
    if (found === undefined) return sendPage(reply, 200, signInPage(tenantName));
    const request = await getPriorAuth(db, found.tenant.id, transactionId);
    const [member, consumption] = await Promise.all([
      getMember(db, found.tenant.id, request.member_id).catch(() => undefined),
      request.mode === "standard"
        ? getConsumption(db, found.tenant.id, {
            ph_erp_id: request.ph_erp_id,
            policy_no: request.policy_no,
            member_id: request.member_id,
          }).catch(() => undefined)
        : undefined,
    ]);
    const page = requestPage(found.context, request, { name: member?.name ?? null, consumption }, notice);
    return sendPage(reply, notice?.status ?? 200, page);
  }

  app.get(
    "/requests/:transaction_id",
    { schema: { ...hidden, params: RequestParams, querystring: QueueQuery } },
    async (request, reply) => {
      const done = noticeOf(request.query.done);
      return showRequest(
        reply,
        await who(request),
        request.params.tenant,
        request.params.transaction_id,
        done === undefined ? undefined : { text: done, error: false, status: 200 },
      );
    },
  );

  /** a write from a request's page: done, then back to the page (303), or the page again with why not */
  function action(
    path: string,
    run: (found: Awaited<ReturnType<typeof writer>>, transactionId: string, form: Form) => Promise<NoticeKey>,
  ) {
    app.post(
      `/requests/:transaction_id/${path}`,
      { schema: { ...hidden, params: RequestParams, body: FormBody } },
      async (request, reply) => {
        const found = await writer(request);
        const transactionId = request.params.transaction_id;
        try {
          const done = await run(found, transactionId, request.body);
          const page = `${consoleBase(found.tenant.name)}/requests/${encodeURIComponent(transactionId)}`;
          return reply.redirect(`${page}?done=${encodeURIComponent(done)}`, 303);
        } catch (error) {
          if (!(error instanceof AppError) || error.code === "E_EPA_09") throw error;
          const text = error.details.length > 1 ? error.details.join("; ") : error.message;
          const notice = { text, error: true, status: error.status };
          return showRequest(reply, found, found.tenant.name, transactionId, notice);
        }
      },
    );
  }

  action("decision", async ({ actor, session }, transactionId, form) => {
    const input = decisionOf(form, session.username);
    await updatePriorAuth(db, jobs, actor, transactionId, input);
    return `decided-${input.status}`;
  });
  action("refer", async ({ actor, session }, transactionId, form) => {
    const days = Number(form.valid_days);
    await updatePriorAuth(db, jobs, actor, transactionId, {
      status: "REFERRED",
      erp_reviewer_id: session.username,
      ...(form.referral_cchi_code?.trim() ? { referral_cchi_code: form.referral_cchi_code.trim() } : {}),
      ...(Number.isInteger(days) && days >= 1 && days <= 365 ? { referral_valid_days: days } : {}),
      ...(form.remarks?.trim() ? { refferal_remarks: form.remarks.trim().slice(0, 1000) } : {}),
    });
    return "referred";
  });
  action("communication", async ({ actor, session }, transactionId, form) => {
    await createCommunication(db, jobs, actor, {
      transaction_id: transactionId,
      user_name: session.username,
      ...(form.title?.trim() ? { title: form.title.trim().slice(0, 255) } : {}),
      content: (form.content ?? "").slice(0, 10_000),
      date: new Date().toISOString(),
    });
    return "communicated";
  });
  action("information-request", async ({ actor, session }, transactionId, form) => {
    const input = informationRequestOf(form, transactionId, session.username);
    await createInformationRequest({ ...actor, db, jobs, now: () => new Date() }, input);
    return "information-requested";
  });
  action("reopen", async ({ actor, session }, transactionId, form) => {
    await reopenPriorAuth(db, jobs, actor, transactionId, {
      nphies_reopen_reason: reopenReasonOf(form),
      nphies_reopen_at: new Date().toISOString(),
      username: session.username,
    });
    return "reopened";
  });
  await app.register(consoleBatchRoutes, { db, jobs, config });

  action("cancel", async ({ actor }, transactionId) => {
    await cancelPriorAuth(db, jobs, actor, transactionId);
    return "cancelled";
  });
};
