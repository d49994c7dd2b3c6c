import type { CapabilityStatement } from "@medplum/fhirtypes";
import { MESSAGE_EVENTS, profile, RESPONSE_EVENT } from "../../reference/nphies-fhir.js";

/** what this payer endpoint does, as FHIR says it: NPHIES messaging over `$process-message` */
export function capabilityStatementOf(fhirBase: string, at: Date): CapabilityStatement {
  return {
    resourceType: "CapabilityStatement",
    status: "active",
    date: at.toISOString(),
    kind: "instance",
    software: { name: "Mizan" },
    implementation: { description: "Mizan payer endpoint for NPHIES messages", url: fhirBase },
    fhirVersion: "4.0.1",
    format: ["application/fhir+json"],
    messaging: [
      {
        endpoint: [
          {
            protocol: { system: "http://terminology.hl7.org/CodeSystem/message-transport", code: "http" },
            address: `${fhirBase}/$process-message`,
          },
        ],
        documentation: `Events of ${MESSAGE_EVENTS}: ${Object.entries(RESPONSE_EVENT)
          .map(([request, response]) => `${request} answered by ${response}`)
          .join(", ")}. Claims and prior authorizations of the five claim types.`,
        supportedMessage: Object.keys(RESPONSE_EVENT).map((event) => ({
          mode: "receiver" as const,
          definition: `http://nphies.sa/fhir/ksa/nphies-fs/MessageDefinition/${event}`,
        })),
      },
    ],
    rest: [
      {
        mode: "server",
        operation: [
          {
            name: "process-message",
            definition: "http://hl7.org/fhir/OperationDefinition/MessageHeader-process-message",
          },
        ],
      },
    ],
    instantiates: [profile("bundle")],
  };
}
