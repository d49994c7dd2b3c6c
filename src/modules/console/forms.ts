import { Compile } from "typebox/compile";
import { AppError } from "../../platform/http/errors.js";
import {
  InformationRequestBody,
  type InformationRequestInput,
} from "../prior-auth/information-requests/schemas.js";
import { REOPEN_REASONS, type ReopenInput, UpdateBody, type UpdateInput } from "../prior-auth/schemas.js";

/** a form as the browser posts it: name -> value */
export type Form = Record<string, string>;

const UPDATE = Compile(UpdateBody);
const INFORMATION_REQUEST = Compile(InformationRequestBody);

const number = (text: string | undefined) =>
  text === undefined || text.trim() === "" ? undefined : Number(text);

/**
 * The reviewer update a decision form says, checked by the API's own schema: accept the request (held
 * items approved at what the rules propose), reject it, or each item's choice with its quantity, amount and
 * reason (accepted and rejected items together make a partial acceptance).
 */
export function decisionOf(form: Form, reviewer: string): UpdateInput {
  const remarks = form.remarks?.trim() ? { approval_remarks: form.remarks.trim() } : {};
  const common = { erp_reviewer_id: reviewer, ...remarks };
  let input: UpdateInput;
  if (form.decision === "accept-request") input = { status: "ACCEPTED", ...common };
  else if (form.decision === "reject-request") input = { status: "REJECTED", ...common };
  else {
    const items = Object.keys(form)
      .flatMap((key) => /^items\.(\d+)\.status$/.exec(key)?.[1] ?? [])
      .map((index) => {
        const field = (name: string) => form[`items.${index}.${name}`];
        const status = field("status") === "REJECTED" ? ("REJECTED" as const) : ("ACCEPTED" as const);
        const reason = field("reason");
        return {
          erp_item_id: field("erp_item_id") ?? "",
          status,
          ...(status === "ACCEPTED"
            ? { approved_quantity: number(field("quantity")), approved_amount: number(field("amount")) }
            : {}),
          ...(reason ? { reasons: [{ code: reason }] } : {}),
        };
      });
    if (items.length === 0)
      throw new AppError("E_BAD_REQUEST_400", "Choose accept or reject for an item first");
    const statuses = new Set(items.map((item) => item.status));
    const status =
      statuses.size > 1 ? "PARTIALLY_ACCEPTED" : statuses.has("REJECTED") ? "REJECTED" : "ACCEPTED";
    input = { status, ...common, items };
  }
  const cleaned = JSON.parse(JSON.stringify(input));
  if (!UPDATE.Check(cleaned)) {
    const first = [...UPDATE.Errors(cleaned)][0];
    throw new AppError(
      "E_BAD_REQUEST_400",
      `${first?.instancePath ?? ""} ${first?.message ?? "is not valid"}`.trim(),
    );
  }
  return cleaned;
}

/** the request for information a form says, from the signed-in reviewer, checked by the API's own schema */
export function informationRequestOf(
  form: Form,
  transactionId: string,
  reviewer: string,
): InformationRequestInput {
  const input = { transaction_id: transactionId, erp_reviewer_id: reviewer, content: form.content ?? "" };
  if (!INFORMATION_REQUEST.Check(input)) {
    const first = [...INFORMATION_REQUEST.Errors(input)][0];
    throw new AppError(
      "E_BAD_REQUEST_400",
      `${first?.instancePath ?? ""} ${first?.message ?? "is not valid"}`.trim(),
    );
  }
  return input;
}

/** the reopen reason a form names, one of the API's own (REOPEN_REASONS); anything else is OTHER */
export function reopenReasonOf(form: Form): ReopenInput["nphies_reopen_reason"] {
  return REOPEN_REASONS.find((known) => known === form.reason) ?? "OTHER";
}
