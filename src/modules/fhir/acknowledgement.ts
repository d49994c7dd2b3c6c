import { randomUUID } from "node:crypto";
import type { Bundle, OperationOutcome } from "@medplum/fhirtypes";
import { CS, profile } from "../../reference/nphies-fhir.js";
import type { Message } from "./bundle.js";
import { payerMessageOf } from "./message.js";
import { partiesOf } from "./target.js";

/** a NPHIES business rule a message breaks: its id and text in the pack's validation-rules */
export interface RuleBroken {
  rule: string;
  display: string;
}

/** a rule broken by the element at `expression` (a FHIRPath from the Bundle) */
type BrokenAt = RuleBroken & { expression: string };

const operationOutcomeOf = (broken: BrokenAt): OperationOutcome => ({
  resourceType: "OperationOutcome",
  id: randomUUID(),
  meta: { profile: [profile("operation-outcome")] },
  issue: [
    {
      severity: "error",
      code: "business-rule",
      details: {
        coding: [{ system: `${CS}adjudication-error`, code: broken.rule, display: broken.display }],
        text: broken.display,
      },
      expression: [broken.expression],
    },
  ],
});

/**
 * The `acknowledgement` of a message (IG 6.2.7: "a MessageHeader, and optional referenced OperationOutcome
 * if there are errors"): the header alone with response.code `ok`; or, when the message was read but
 * cannot be taken (a Claim this payer does not hold), response.code `ok` (the contract's answer to every
 * message a payer receives) with the OperationOutcome as response.details and focus (IG 6.2.13: "when an
 * OperationOutcome is provided then it is also the .focus").
 */
export function acknowledgementMessageOf(message: Message, at: Date, broken?: BrokenAt): Bundle {
  const parties = partiesOf(message);
  const outcome = broken === undefined ? undefined : operationOutcomeOf(broken);
  const bundle = payerMessageOf(
    {
      event: "acknowledgement",
      providerLicense: parties.provider,
      payerLicense: parties.payer,
      at,
      requestMessageId: message.header.id,
      focusIsDetails: true,
    },
    outcome === undefined ? [] : [outcome],
    [],
  );
  // an error-notice comes from NPHIES itself, not a provider: the acknowledgement goes back to its sender
  const sender = message.header.sender?.identifier;
  const header = bundle.entry?.[0]?.resource;
  if (parties.provider === "" && sender?.value !== undefined && header?.resourceType === "MessageHeader")
    header.destination = [
      {
        endpoint: message.header.source?.endpoint ?? sender.value,
        receiver: { type: "Organization", identifier: { system: sender.system, value: sender.value } },
      },
    ];
  return bundle;
}
