import type { ClaimResult } from "../../../engine/fwa/results.js";
import { type Html, html } from "../../../platform/http/html.js";
import type { RankedProviderView } from "../../claims-batch/schemas.js";
import type { BatchRow } from "../../claims-batch/service.js";
import { consoleBase, day, type PageContext, page, sar } from "../layout.js";

/** the claims-batch pages of the console: the tenant's batches, a batch's summary, its flagged claims */

const batchPath = (context: PageContext, batchId: string) =>
  `${consoleBase(context.tenant)}/batches/${encodeURIComponent(batchId)}`;

const minute = (value: Date | null) =>
  value === null ? "—" : `${day(value)} ${value.toISOString().slice(11, 16)} UTC`;

const STATUSES = ["approved", "flagged", "rejected"] as const;

/** the tenant's batches, newest first; `page` of 1.. with a link to older ones when there are more */
export function batchListPage(
  context: PageContext,
  batches: BatchRow[],
  listing: { page: number; more: boolean },
): string {
  const rows = batches.map(
    (batch) => html`<tr data-batch-id="${batch.id}" data-href="${batchPath(context, batch.id)}">
      <td><a href="${batchPath(context, batch.id)}">${batch.batch_reference_id}</a></td>
      <td class="optional">${batch.description ?? "—"}</td>
      <td><span class="badge ${batch.status}">${batch.status}</span></td>
      <td class="num">${batch.progress} %</td>
      <td class="num">${batch.total_claims}</td>
      <td class="num optional">${batch.total_items}</td>
      ${STATUSES.map((status) => html`<td class="num">${batch.summary?.[status] ?? "—"}</td>`)}
      <td>${minute(batch.submitted_at)}</td>
    </tr>`,
  );
  const base = `${consoleBase(context.tenant)}/batches`;
  const newer = listing.page > 1 ? html`<a href="${base}?page=${listing.page - 1}">Newer</a>` : "";
  const older = listing.more ? html`<a href="${base}?page=${listing.page + 1}">Older</a>` : "";
  return page(
    context,
    "Claims batches",
    rows.length === 0
      ? html`<p class="card">No batch has been submitted${listing.page > 1 ? " beyond these" : ""}.</p>${newer}`
      : html`<table>
      <thead><tr><th>Reference</th><th class="optional">Description</th><th>Status</th><th class="num">Progress</th>
        <th class="num">Claims</th><th class="num optional">Items</th><th class="num">Approved</th>
        <th class="num">Flagged</th><th class="num">Rejected</th><th>Submitted</th></tr></thead>
      <tbody>${rows}</tbody></table>
      <p class="pager">${newer} ${older}</p>`,
  );
}

/** bars of `values` in a 640 x 220 SVG, each with its count above and its label below */
function barChart(label: string, bars: { label: string; value: number; kind: string }[]): Html {
  const top = Math.max(1, ...bars.map((bar) => bar.value));
  const slot = 600 / bars.length;
  const width = slot * 0.8;
  return html`<svg class="chart" viewBox="0 0 640 220" role="img" aria-label="${label}">
    <line class="axis" x1="20" y1="180" x2="620" y2="180"></line>
    ${bars.map((bar, n) => {
      const height = Math.round((150 * bar.value) / top);
      const x = Math.round(20 + n * slot + (slot - width) / 2);
      const middle = Math.round(x + width / 2);
      return html`<rect class="${bar.kind}" x="${x}" y="${180 - height}" width="${Math.round(width)}" height="${height}"><title>${bar.label}: ${bar.value}</title></rect>
      <text x="${middle}" y="${174 - height}" text-anchor="middle">${bar.value}</text>
      <text x="${middle}" y="198" text-anchor="middle">${bar.label}</text>`;
    })}
  </svg>`;
}

const statusChart = (summary: NonNullable<BatchRow["summary"]>) =>
  barChart(
    "Claims by status",
    STATUSES.map((status) => ({ label: status, value: summary[status], kind: status })),
  );

const scoreChart = (bins: number[]) =>
  barChart(
    "Items by ai_score",
    bins.map((value, n) => ({
      label: `${(n / 10).toFixed(1)}–${((n + 1) / 10).toFixed(1)}`,
      value,
      kind: "score",
    })),
  );

const reasonList = (reasons: { code: string; description: string; cause?: string }[]) =>
  reasons.length === 0
    ? html`—`
    : html`<ul class="reasons">${reasons.map(
        (reason) =>
          html`<li><span class="code">${reason.code}</span> ${reason.description}${reason.cause ? html`: ${reason.cause}` : ""}</li>`,
      )}</ul>`;

/** a batch's status and, once its results can be read (as in the API), its charts and provider ranking */
export interface BatchView {
  histogram?: number[];
  ranking?: { providers: RankedProviderView[]; first: number; page: number; pages: number };
  /** why there are no results: still running, or results purged */
  notice?: string;
}

function rankingTable(
  context: PageContext,
  batch: BatchRow,
  ranking: NonNullable<BatchView["ranking"]>,
): Html {
  const path = batchPath(context, batch.id);
  const rows = ranking.providers.map(
    (provider, n) => html`<tr data-provider-id="${provider.provider_id}">
      <td class="num">${ranking.first + n}</td>
      <td><a href="${path}/providers/${encodeURIComponent(provider.provider_id)}">${provider.provider_id}</a></td>
      <td class="optional">${provider.medical_provider_type}</td>
      <td class="num">${provider.risk_score.toFixed(4)}</td>
      <td class="num">${provider.claims}</td>
      <td class="num">${provider.flagged_claims} / ${provider.rejected_claims}</td>
      <td class="num">${sar(provider.flagged_amount)}</td>
      <td>${reasonList(provider.reasons)}</td>
    </tr>`,
  );
  const pager = [
    ranking.page > 1 ? html`<a href="${path}?page=${ranking.page - 1}">Higher risk</a>` : "",
    ranking.page < ranking.pages ? html`<a href="${path}?page=${ranking.page + 1}">Lower risk</a>` : "",
  ];
  return html`<h2>Providers by risk</h2>
    <table class="ranking">
      <thead><tr><th class="num">Rank</th><th>Provider</th><th class="optional">Type</th><th class="num">Risk</th>
        <th class="num">Claims</th><th class="num">Flagged / rejected</th><th class="num">Flagged SAR</th><th>Reasons</th></tr></thead>
      <tbody>${rows}</tbody></table>
    <p class="pager">${pager}</p>`;
}

export function batchPage(context: PageContext, batch: BatchRow, view: BatchView): string {
  const path = batchPath(context, batch.id);
  const facts = html`<div class="card grid">
    <div><span class="muted">Status</span><br><span class="badge ${batch.status}">${batch.status}</span> ${batch.progress} %</div>
    <div><span class="muted">Claims</span><br>${batch.processed_claims} of ${batch.total_claims} analysed, ${batch.failed_claims} failed</div>
    <div><span class="muted">Items</span><br>${batch.total_items}</div>
    <div><span class="muted">Submitted</span><br>${minute(batch.submitted_at)}</div>
    <div><span class="muted">Analysed</span><br>${minute(batch.processed_at)}</div>
    <div><span class="muted">Results kept until</span><br>${minute(batch.results_available_until)}</div>
  </div>`;
  const summary = batch.summary;
  // a failed batch's results are readable too (empty, as the API answers them): links, but no charts
  const results =
    view.histogram === undefined
      ? html`<p class="message">${view.notice ?? "No results."}</p>`
      : html`<p class="actions">
          <a href="${path}/claims?status=flagged">Flagged claims (${summary?.flagged ?? 0})</a>
          <a href="${path}/claims?status=rejected">Rejected claims (${summary?.rejected ?? 0})</a>
          <a href="${path}/results.csv" download>Download the results (CSV)</a>
        </p>
        ${
          summary === null
            ? html`<p class="message">The analysis failed: the batch has no results.</p>`
            : html`<div class="grid charts">
          <figure class="card">${statusChart(summary)}<figcaption>Claims by status · FWA cases: ${summary.FWA_cases}</figcaption></figure>
          <figure class="card">${scoreChart(view.histogram)}<figcaption>Items by ai_score</figcaption></figure>
        </div>
        ${view.ranking ? rankingTable(context, batch, view.ranking) : ""}`
        }`;
  return page(
    context,
    `Batch ${batch.batch_reference_id}`,
    html`<p class="muted">${batch.description ?? ""} <a href="${consoleBase(context.tenant)}/batches">All batches</a></p>
    ${batch.error ? html`<p class="message error">${batch.error}</p>` : ""}${facts}${results}`,
  );
}

/** a ranked provider of the batch: its figures and the reasons of its risk */
export function providerPage(
  context: PageContext,
  batch: BatchRow,
  ranked: { rank: number; provider: RankedProviderView },
  claims: ClaimResult[],
): string {
  const { provider } = ranked;
  const path = batchPath(context, batch.id);
  return page(
    context,
    `Provider ${provider.provider_id}`,
    html`<p class="muted">Batch <a href="${path}">${batch.batch_reference_id}</a> · rank ${ranked.rank} by risk</p>
    <div class="card grid">
      <div><span class="muted">Risk score</span><br>${provider.risk_score.toFixed(4)}</div>
      <div><span class="muted">Type</span><br>${provider.medical_provider_type}</div>
      <div><span class="muted">Claims / items</span><br>${provider.claims} / ${provider.items}</div>
      <div><span class="muted">Claimed SAR</span><br>${sar(provider.claimed_amount)}</div>
      <div><span class="muted">Flagged / rejected claims</span><br>${provider.flagged_claims} / ${provider.rejected_claims}</div>
      <div><span class="muted">Flagged SAR</span><br>${sar(provider.flagged_amount)}</div>
    </div>
    <h2>Why</h2>${reasonList(provider.reasons)}
    <h2>Flagged and rejected claims</h2>
    ${claims.length === 0 ? html`<p class="card">None of this provider's claims is flagged or rejected.</p>` : claims.map(claimSection)}`,
  );
}

/** a claim of the batch: every item with its status, score and reasons */
const claimSection = (claim: ClaimResult) =>
  html`<section class="item ${claim.status}" data-claim-id="${claim.claim_id}">
      <h3>${claim.claim_id} <span class="badge ${claim.status}">${claim.status}</span></h3>
      <table><thead><tr><th>Item</th><th>Status</th><th class="num">Score</th><th>Reasons</th></tr></thead><tbody>
      ${claim.claim_items.map(
        (
          item,
        ) => html`<tr><td>${item.erp_claim_item_id}</td><td><span class="badge ${item.status}">${item.status}</span></td>
          <td class="num">${item.ai_score.toFixed(4)}</td><td>${reasonList(item.reasons.map(({ code, description }) => ({ code, description })))}</td></tr>`,
      )}
      </tbody></table>
    </section>`;

/** one page of the batch's claims of a status, every item with its status, score and reasons */
export function claimsPage(
  context: PageContext,
  batch: BatchRow,
  status: "flagged" | "rejected",
  results: { claims: ClaimResult[]; page: number; pages: number; total: number },
): string {
  const path = batchPath(context, batch.id);
  const claims = results.claims.map(claimSection);
  const link = (to: number, text: string) =>
    html`<a href="${path}/claims?status=${status}&page=${to}">${text}</a>`;
  const other = status === "flagged" ? "rejected" : "flagged";
  return page(
    context,
    `${status === "flagged" ? "Flagged" : "Rejected"} claims of ${batch.batch_reference_id}`,
    html`<p class="muted">${results.total} ${results.total === 1 ? "claim" : "claims"} · page ${results.page} of ${Math.max(1, results.pages)} ·
      <a href="${path}">The batch</a> · <a href="${path}/claims?status=${other}">The ${other} claims</a></p>
    ${claims.length === 0 ? html`<p class="card">No ${status} claims here.</p>` : claims}
    <p class="pager">${results.page > 1 ? link(results.page - 1, "Previous") : ""}
      ${results.page < results.pages ? link(results.page + 1, "Next") : ""}</p>`,
  );
}
