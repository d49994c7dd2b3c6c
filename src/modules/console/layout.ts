import type { FastifyReply } from "fastify";
import { type Html, html } from "../../platform/http/html.js";

/** where a tenant's console lives, and its pages under it */
export const consoleBase = (tenant: string) => `/${tenant}/console`;

export interface PageContext {
  tenant: string;
  /** the signed-in reviewer; undefined on the sign-in page */
  reviewer?: { username: string; name: string | null; csrf: string } | undefined;
}

/** the hidden field every form of a session carries */
export const csrfField = (page: PageContext) =>
  page.reviewer === undefined
    ? html``
    : html`<input type="hidden" name="csrf" value="${page.reviewer.csrf}">`;

/** a name as people write it: Arabic shows right to left, Latin left to right */
export const nameOf = (name: string | null | undefined) =>
  name ? html`<bdi dir="auto">${name}</bdi>` : html`—`;

/** the page around `body`: the console's own style sheet and script (no inline code, so CSP forbids it) */
export function page(context: PageContext, title: string, body: Html): string {
  const base = consoleBase(context.tenant);
  const nav =
    context.reviewer === undefined
      ? html``
      : html`<nav>
          <a href="${base}/">Review queue</a>
          <a href="${base}/batches">Claims batches</a>
          <span class="who">${nameOf(context.reviewer.name ?? context.reviewer.username)}</span>
          <form method="post" action="${base}/sign-out" class="inline">
            ${csrfField(context)}<button type="submit" data-action="sign-out">Sign out</button>
          </form>
        </nav>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Mizan</title>
<link rel="stylesheet" href="${base}/assets/console.css">
<script src="${base}/assets/console.js" defer></script>
</head>
<body>
<header><a class="brand" href="${base}/">Mizan</a> <span class="tenant">${context.tenant}</span>${nav}</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.text;
}

/** riyals with two decimals and thousands separators */
export const sar = (amount: number | string) =>
  Number(amount).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const day = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? "—" : new Date(value).toISOString().slice(0, 10);

/** answers a console page */
export const sendPage = (reply: FastifyReply, status: number, body: string) =>
  reply.status(status).type("text/html; charset=utf-8").send(body);
