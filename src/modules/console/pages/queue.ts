import { html } from "../../../platform/http/html.js";
import type { QueueEntry, QueueFilter } from "../../prior-auth/service.js";
import { consoleBase, day, type PageContext, page, sar } from "../layout.js";

/** the requests that wait for a reviewer, with filters and counts; each row opens its request */
export function queuePage(
  context: PageContext,
  filter: QueueFilter,
  queue: { entries: QueueEntry[]; counts: { PENDING: number; REFERRED: number } },
): string {
  const base = consoleBase(context.tenant);
  const selected = (value: string) => (filter.status === value ? html` selected` : html``);
  const rows = queue.entries.map(
    (
      entry,
    ) => html`<tr data-transaction-id="${entry.transaction_id}" data-href="${base}/requests/${encodeURIComponent(entry.transaction_id)}">
      <td><a href="${base}/requests/${encodeURIComponent(entry.transaction_id)}">${entry.transaction_id}</a></td>
      <td><span class="badge ${entry.status}">${entry.status}</span></td>
      <td>${entry.member_id}</td>
      <td class="optional">${entry.provider_cchi_no}</td>
      <td>${day(entry.treatment_date)}</td>
      <td class="optional">${entry.claim_type}</td>
      <td class="num">${entry.held} / ${entry.items}</td>
      <td class="num">${entry.max_score.toFixed(2)}</td>
      <td class="num">${sar(entry.requested)}</td>
    </tr>`,
  );
  return page(
    context,
    "Review queue",
    html`<p class="muted">${queue.counts.PENDING} held for review · ${queue.counts.REFERRED} referred</p>
    <form class="filters" method="get" action="${base}/">
      <label>Status <select name="status"><option value="">All</option>
        <option value="PENDING"${selected("PENDING")}>Held (PENDING)</option>
        <option value="REFERRED"${selected("REFERRED")}>Referred</option></select></label>
      <label>Provider <input name="provider" value="${filter.provider ?? ""}" size="10"></label>
      <label>Member <input name="member" value="${filter.member ?? ""}" size="10"></label>
      <label>From <input name="from" type="date" value="${filter.from ?? ""}"></label>
      <label>To <input name="to" type="date" value="${filter.to ?? ""}"></label>
      <label>Score at least <input name="min_score" type="number" min="0" max="1" step="0.05" value="${filter.minScore ?? ""}"></label>
      <button type="submit" class="secondary">Filter</button>
    </form>
    ${
      rows.length === 0
        ? html`<p class="card">Nothing waits for a reviewer.</p>`
        : html`<table>
      <thead><tr><th>Request</th><th>Status</th><th>Member</th><th class="optional">Provider</th><th>Treatment</th>
        <th class="optional">Type</th><th class="num">Held / items</th><th class="num">Top score</th><th class="num">Requested SAR</th></tr></thead>
      <tbody>${rows}</tbody></table>`
    }`,
  );
}
