import { type Html, html } from "../../../platform/http/html.js";
import { NPHIES_REASONS } from "../../../reference/nphies-reasons.js";
import type { getConsumption } from "../../policy-templates/service.js";
import { REOPEN_REASONS } from "../../prior-auth/schemas.js";
import { type getPriorAuth, REOPENABLE } from "../../prior-auth/service.js";
import { consoleBase, csrfField, day, nameOf, type PageContext, page, sar } from "../layout.js";

type Request = Awaited<ReturnType<typeof getPriorAuth>>;
type Item = Request["items"][number];
type Consumption = Awaited<ReturnType<typeof getConsumption>>;

const REASON_OPTIONS = html`<option value="">— reason —</option>${[...NPHIES_REASONS].map(
  ([code, display]) => html`<option value="${code}">${code} ${display.slice(0, 70)}</option>`,
)}`;

function reasonsOf(item: Item): Html {
  const reasons = [
    ...item.reasons.map((reason) => ({ ...reason, who: reason.source === "ai" ? "score" : "rules" })),
    ...item.reviewer_reasons.map((reason) => ({
      code: reason.code,
      nphies_code: NPHIES_REASONS.has(reason.code) ? reason.code : null,
      message: reason.message ?? NPHIES_REASONS.get(reason.code) ?? reason.code,
      who: "reviewer",
    })),
  ];
  if (reasons.length === 0) return html``;
  return html`<ul class="reasons">${reasons.map(
    (reason) => html`<li><span class="code">${reason.nphies_code ?? reason.code}</span>
      ${reason.nphies_code !== null && reason.nphies_code !== reason.code ? html`<span class="code muted">(${reason.code})</span>` : ""}
      ${reason.message} <span class="muted">· ${reason.who}</span></li>`,
  )}</ul>`;
}

function itemOf(item: Item, index: number, decidable: boolean): Html {
  const name = (field: string) => `items.${index}.${field}`;
  return html`<section class="item ${item.decision}" data-item-index="${index}">
    <div class="grid">
      <div><strong>${item.service_code}</strong> <span class="muted">${item.nphies_code}</span><br>${item.service_description}</div>
      <div><span class="badge ${item.decision}">${item.decision}</span>
        ${item.reviewer_status ? html` <span class="badge ${item.reviewer_status}">reviewer: ${item.reviewer_status}</span>` : ""}</div>
      <div class="num">Qty ${item.approved_quantity} of ${item.claimed_quantity ?? 1} · SAR ${sar(item.approved_amount)} of ${sar(item.request_amount)}<br>
        <span class="muted">price cut ${sar(item.price_rejected_amount)} · rejected ${sar(item.rejected_amount)} · held ${sar(item.held_amount)}</span></div>
      <div>Score <strong>${item.svc_ai_score.toFixed(2)}</strong>${item.svc_ai_alert ? html`<br><span class="muted">${item.svc_ai_alert}</span>` : ""}</div>
    </div>
    ${reasonsOf(item)}
    ${
      decidable
        ? html`<div class="choice">
      <label class="radio"><input type="radio" name="${name("status")}" value="ACCEPTED" data-action="accept-item"> Accept</label>
      <label class="radio"><input type="radio" name="${name("status")}" value="REJECTED" data-action="reject-item"> Reject</label>
      <label>Quantity <input type="number" name="${name("quantity")}" min="0" max="${item.claimed_quantity ?? 1}" value="${item.approved_quantity || (item.claimed_quantity ?? 1)}"></label>
      <label>Amount SAR <input type="number" name="${name("amount")}" min="0" step="0.01" value="${item.held_amount || item.approved_amount}"></label>
      <label>Reason <select name="${name("reason")}">${REASON_OPTIONS}</select></label>
      <input type="hidden" name="${name("erp_item_id")}" value="${item.erp_item_id ?? ""}">
    </div>`
        : ""
    }
  </section>`;
}

function limitsOf(consumption: Consumption | undefined): Html {
  if (consumption === undefined)
    return html`<p class="muted">No coverage on file (lightweight mode, or the member is not on the policy).</p>`;
  return html`<p>Category ${consumption.category_code}: SAR ${sar(consumption.amount_utilized)} used of ${sar(consumption.amount_eligible)}</p>
    <table><thead><tr><th>Benefit</th><th class="num">Limit SAR</th><th class="num">Used SAR</th></tr></thead>
    <tbody>${consumption.benefit_consumption.map(
      (benefit) =>
        html`<tr><td>${benefit.benefit_code}</td><td class="num">${sar(benefit.limit)}</td><td class="num">${sar(benefit.utilized)}</td></tr>`,
    )}</tbody></table>`;
}

/** what reviewers asked the provider, oldest first (the request waits for the answer) */
function informationRequestsOf(request: Request): Html {
  if (request.communication_requests.length === 0) return html``;
  return html`<h2>Information requested</h2>${request.communication_requests.map(
    (asked) =>
      html`<div class="card" data-information-request-id="${asked.id}"><span class="muted">${asked.created_at.replace("T", " ").slice(0, 19)} · ${asked.reviewer}${
        asked.erp_item_ids.length > 0 ? html` · items ${asked.erp_item_ids.join(", ")}` : ""
      }</span><br>${asked.content}</div>`,
  )}`;
}

/** a request's page: who and what, the limits used, every item with its decision and reasons, the actions */
export function requestPage(
  context: PageContext,
  request: Request,
  member: { name: string | null; consumption: Consumption | undefined },
  notice: { text: string; error: boolean } | undefined,
): string {
  const consumption = member.consumption;
  const base = `${consoleBase(context.tenant)}/requests/${encodeURIComponent(request.transaction_id)}`;
  const open = request.status === "PENDING" || request.status === "REFERRED";
  const reopenable = REOPENABLE.includes(request.status);
  const cancelled = request.status === "CANCELLED";
  return page(
    context,
    `Request ${request.transaction_id}`,
    html`${notice ? html`<p class="message${notice.error ? " error" : ""}" role="status">${notice.text}</p>` : ""}
    <div class="card grid">
      <div>Status<br><span class="badge ${request.status}">${request.status}</span></div>
      <div>Member<br><strong>${request.member_id}</strong> ${nameOf(member.name)}<br>${request.member_gender} · born ${day(request.member_dob)}</div>
      <div>Provider<br>${request.medical_provider_cchi_no}</div>
      <div>Policy<br>${request.ph_erp_id} / ${request.policy_no}</div>
      <div>Treatment<br>${day(request.treatment_date)} · ${request.claim_type} ${request.claim_sub_type} · ${request.transaction_type}</div>
      <div>Diagnoses<br>${request.diagnoses.map((diagnosis) => html`${diagnosis.code} ${nameOf(diagnosis.name)}<br>`)}</div>
      <div>Doctor<br>${nameOf(request.doctor_name)} ${request.doctor_speciality ?? ""}</div>
      <div>Reviewer<br>${request.reviewer_erp_id ?? "—"}</div>
    </div>
    ${request.note ? html`<p class="card">${request.note}</p>` : ""}
    ${request.request_alerts.length > 0 ? html`<ul class="card">${request.request_alerts.map((alert) => html`<li>${alert}</li>`)}</ul>` : ""}
    <h2>Limits used</h2>
    ${limitsOf(consumption)}
    <h2>Items</h2>
    <form method="post" action="${base}/decision">
      ${csrfField(context)}
      ${request.items.map((item, index) => itemOf(item, index, open))}
      ${
        open
          ? html`<label>Remarks <textarea name="remarks" rows="2" maxlength="1000"></textarea></label>
      <div class="actions">
        <button type="submit" name="decision" value="accept-request" data-action="accept-request">Accept the request</button>
        <button type="submit" name="decision" value="reject-request" data-action="reject-request" class="danger">Reject the request</button>
        <button type="submit" name="decision" value="items" data-action="submit-decision" class="secondary">Submit the items' decisions</button>
      </div>`
          : ""
      }
    </form>
    ${
      open
        ? html`<h2>Refer</h2>
    <form method="post" action="${base}/refer" class="filters">${csrfField(context)}
      <label>Provider CCHI code <input name="referral_cchi_code" required></label>
      <label>Valid days <input name="valid_days" type="number" min="1" max="365" value="30"></label>
      <label>Remarks <input name="remarks" maxlength="1000"></label>
      <button type="submit" data-action="refer" class="secondary">Refer</button>
    </form>`
        : ""
    }
    ${
      cancelled
        ? ""
        : html`<h2>Ask the provider</h2>
    <form method="post" action="${base}/information-request" class="filters">${csrfField(context)}
      <label>Information needed <textarea name="content" rows="2" maxlength="10000" required></textarea></label>
      <button type="submit" data-action="request-information" class="secondary">Request information</button>
    </form>
    <h2>Communication</h2>
    <form method="post" action="${base}/communication" class="filters">${csrfField(context)}
      <label>Title <input name="title" maxlength="255"></label>
      <label>Message <textarea name="content" rows="2" maxlength="10000" required></textarea></label>
      <button type="submit" data-action="add-communication" class="secondary">Add and adjudicate again</button>
    </form>
    <div class="actions">
      ${
        reopenable
          ? html`<form method="post" action="${base}/reopen" class="inline">${csrfField(context)}
        <select name="reason">${REOPEN_REASONS.map((reason) => html`<option>${reason}</option>`)}</select>
        <button type="submit" data-action="reopen" class="secondary">Reopen</button></form>`
          : ""
      }
      <form method="post" action="${base}/cancel" class="inline">${csrfField(context)}
        <button type="submit" data-action="cancel" class="danger" data-confirm="Cancel this request? This is final.">Cancel the request</button></form>
    </div>`
    }
    <h2>History</h2>
    <table><thead><tr><th>When</th><th>Action</th><th>From</th><th>To</th><th>Who</th></tr></thead>
    <tbody>${request.history.map(
      (entry) =>
        html`<tr><td>${entry.at.replace("T", " ").slice(0, 19)}</td><td>${entry.action}</td><td>${entry.from_status ?? ""}</td><td>${entry.to_status ?? ""}</td><td>${entry.actor}</td></tr>`,
    )}</tbody></table>
    ${informationRequestsOf(request)}
    ${
      request.communications.length > 0
        ? html`<h2>Communications</h2>${request.communications.map(
            (communication) =>
              html`<div class="card"><strong>${communication.title ?? ""}</strong> ${communication.content ?? ""}</div>`,
          )}`
        : ""
    }`,
  );
}
