import Type, { type Static, type TSchema } from "typebox";
import Format from "typebox/format";
import { isDate } from "../../platform/http/validation.js";

/**
 * The subset of FHIR R4 that a NPHIES request message carries and this endpoint reads: one schema per
 * resource, the single source of the checks (each failure named by FHIRPath), the types the mapping reads
 * and the OpenAPI description. Elements not named here are allowed and ignored, as FHIR receivers do.
 */

const FHIR_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
Format.Set("fhir-date", isDate);
Format.Set(
  "fhir-datetime",
  (value) =>
    isDate(value.slice(0, 10)) &&
    (value.length === 10 || (FHIR_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))),
);

const open = { additionalProperties: true } as const;
const Str = (maxLength = 1000) => Type.String({ minLength: 1, maxLength, pattern: "\\S" });
export const FhirDate = () => Type.String({ format: "fhir-date", examples: ["2025-01-31"] });
/** a FHIR dateTime: a date, or a date and time with its zone */
export const FhirDateTime = () =>
  Type.String({ format: "fhir-datetime", examples: ["2025-01-31T10:00:00+03:00"] });

export const Coding = Type.Object(
  { system: Type.Optional(Str()), code: Type.Optional(Str(255)), display: Type.Optional(Type.String()) },
  open,
);
export const CodeableConcept = Type.Object(
  { coding: Type.Optional(Type.Array(Coding)), text: Type.Optional(Type.String()) },
  open,
);
const BoundConcept = Type.Object(
  { coding: Type.Array(Coding, { minItems: 1 }), text: Type.Optional(Type.String()) },
  open,
);
export const Identifier = Type.Object({ system: Type.Optional(Str()), value: Type.Optional(Str(255)) }, open);
export const Reference = Type.Object(
  {
    reference: Type.Optional(Str()),
    identifier: Type.Optional(Identifier),
    type: Type.Optional(Type.String()),
  },
  open,
);
const Amount = Type.Number({ minimum: 0, maximum: 999_999_999_999.99 });
export const Money = Type.Object(
  {
    value: Amount,
    currency: Type.Optional(Type.Literal("SAR", { description: "NPHIES amounts are in riyals" })),
  },
  open,
);
const Period = Type.Object(
  { start: Type.Optional(FhirDateTime()), end: Type.Optional(FhirDateTime()) },
  open,
);
export const Extension = Type.Object(
  {
    url: Str(),
    valueMoney: Type.Optional(Money),
    valueBoolean: Type.Optional(Type.Boolean()),
    valueReference: Type.Optional(Reference),
    valueIdentifier: Type.Optional(Identifier),
    valueString: Type.Optional(Type.String()),
    valueCodeableConcept: Type.Optional(CodeableConcept),
  },
  open,
);
const Extensions = Type.Optional(Type.Array(Extension));
const Meta = Type.Optional(Type.Object({ profile: Type.Optional(Type.Array(Type.String())) }, open));

const resource = <R extends string, T extends Record<string, TSchema>>(resourceType: R, fields: T) =>
  Type.Object(
    { resourceType: Type.Literal(resourceType), id: Type.Optional(Str(64)), meta: Meta, ...fields },
    open,
  );

export const MessageHeader = Type.Object(
  {
    resourceType: Type.Literal("MessageHeader"),
    id: Str(255),
    meta: Meta,
    eventCoding: Type.Object({ system: Str(), code: Str(255) }, open),
    destination: Type.Optional(
      Type.Array(
        Type.Object({ endpoint: Type.Optional(Type.String()), receiver: Type.Optional(Reference) }, open),
      ),
    ),
    sender: Type.Optional(Reference),
    source: Type.Optional(Type.Object({ endpoint: Type.Optional(Type.String()) }, open)),
    // required of the events a payer receives; checked once the event is known
    focus: Type.Optional(Type.Array(Reference)),
  },
  open,
);

const Diagnosis = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }),
    diagnosisCodeableConcept: BoundConcept,
    type: Type.Optional(Type.Array(CodeableConcept)),
    onAdmission: Type.Optional(CodeableConcept),
  },
  open,
);

const SupportingInfo = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }),
    category: BoundConcept,
    code: Type.Optional(CodeableConcept),
    timingDate: Type.Optional(FhirDate()),
    timingPeriod: Type.Optional(Period),
    valueString: Type.Optional(Type.String()),
    valueBoolean: Type.Optional(Type.Boolean()),
    valueQuantity: Type.Optional(
      Type.Object(
        {
          // NPHIES has passed quantities written as text ("30")
          value: Type.Union([Type.Number(), Type.String({ pattern: "^\\s*-?\\d+(\\.\\d+)?\\s*$" })]),
          unit: Type.Optional(Type.String()),
          code: Type.Optional(Type.String()),
        },
        open,
      ),
    ),
    valueAttachment: Type.Optional(
      Type.Object(
        {
          contentType: Type.Optional(Type.String()),
          data: Type.Optional(Type.String()),
          title: Type.Optional(Type.String()),
          url: Type.Optional(Type.String()),
        },
        open,
      ),
    ),
    valueReference: Type.Optional(Reference),
  },
  open,
);

const CareTeam = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }),
    provider: Reference,
    role: Type.Optional(CodeableConcept),
    qualification: Type.Optional(CodeableConcept),
  },
  open,
);

/** a package item's component (Claim.item.detail), adjudicated in the proportion of its item */
const ItemDetail = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }),
    productOrService: BoundConcept,
    quantity: Type.Optional(Type.Object({ value: Type.Number({ minimum: 0 }) }, open)),
    unitPrice: Type.Optional(Money),
    net: Type.Optional(Money),
  },
  open,
);

const Item = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }),
    careTeamSequence: Type.Optional(Type.Array(Type.Integer())),
    diagnosisSequence: Type.Optional(Type.Array(Type.Integer())),
    informationSequence: Type.Optional(Type.Array(Type.Integer())),
    productOrService: BoundConcept,
    servicedDate: Type.Optional(FhirDate()),
    servicedPeriod: Type.Optional(Period),
    quantity: Type.Optional(Type.Object({ value: Type.Number({ minimum: 0 }) }, open)),
    unitPrice: Type.Optional(Money),
    net: Type.Optional(Money),
    factor: Type.Optional(Type.Number({ minimum: 0 })),
    extension: Extensions,
    detail: Type.Optional(Type.Array(ItemDetail, { maxItems: 500 })),
  },
  open,
);

export const Claim = resource("Claim", {
  identifier: Type.Array(
    Type.Object(
      {
        system: Type.Optional(Str()),
        // the provider's own request id, as NPHIES passed it: any printable text
        value: Type.String({
          minLength: 1,
          maxLength: 255,
          pattern: "^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$",
        }),
      },
      open,
    ),
    { minItems: 1 },
  ),
  status: Type.Optional(Type.String()),
  type: BoundConcept,
  subType: Type.Optional(CodeableConcept),
  use: Type.Enum(["preauthorization", "claim", "predetermination"]),
  patient: Reference,
  created: FhirDateTime(),
  insurer: Type.Optional(Reference),
  provider: Reference,
  priority: Type.Optional(CodeableConcept),
  prescription: Type.Optional(Reference),
  billablePeriod: Type.Optional(Period),
  related: Type.Optional(
    Type.Array(
      Type.Object({ claim: Type.Optional(Reference), relationship: Type.Optional(CodeableConcept) }, open),
    ),
  ),
  // a request NPHIES passed without insurance names its member by the patient alone
  insurance: Type.Optional(
    Type.Array(
      Type.Object(
        {
          sequence: Type.Optional(Type.Integer({ minimum: 1 })),
          focal: Type.Optional(Type.Boolean()),
          coverage: Reference,
          preAuthRef: Type.Optional(Type.Array(Str(255))),
        },
        open,
      ),
    ),
  ),
  careTeam: Type.Optional(Type.Array(CareTeam, { maxItems: 100 })),
  supportingInfo: Type.Optional(Type.Array(SupportingInfo, { maxItems: 100 })),
  diagnosis: Type.Array(Diagnosis, { minItems: 1, maxItems: 100 }),
  item: Type.Array(Item, { minItems: 1, maxItems: 500 }),
  extension: Extensions,
});
export type FhirClaim = Static<typeof Claim>;
export type FhirItem = Static<typeof Item>;

const HumanName = Type.Object(
  {
    text: Type.Optional(Type.String()),
    family: Type.Optional(Type.String()),
    given: Type.Optional(Type.Array(Type.String())),
  },
  open,
);

export const Patient = resource("Patient", {
  identifier: Type.Optional(Type.Array(Identifier)),
  name: Type.Optional(Type.Array(HumanName)),
  gender: Type.Optional(
    Type.String({
      description: "male or female for the engine's gender edits; other values: the member on file's",
    }),
  ),
  // a FHIR date may be partial (a year, a year and month): read as its first day
  birthDate: Type.Optional(
    Type.String({
      pattern: "^\\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\\d|3[01]))?)?$",
      examples: ["1984-12-25"],
    }),
  ),
  maritalStatus: Type.Optional(CodeableConcept),
});
export type FhirPatient = Static<typeof Patient>;

export const Coverage = resource("Coverage", {
  identifier: Type.Optional(Type.Array(Identifier)),
  subscriberId: Type.Optional(Type.String()),
  policyHolder: Type.Optional(Reference),
  status: Type.Optional(Type.String()),
  type: Type.Optional(CodeableConcept),
  subscriber: Type.Optional(Reference),
  beneficiary: Reference,
  relationship: Type.Optional(CodeableConcept),
  period: Type.Optional(Period),
  payor: Type.Optional(Type.Array(Reference)),
  // the policy may ride in a class (plan, group) or not at all
  class: Type.Optional(
    Type.Array(
      Type.Object({ type: CodeableConcept, value: Type.String(), name: Type.Optional(Type.String()) }, open),
    ),
  ),
});
export type FhirCoverage = Static<typeof Coverage>;

export const Organization = resource("Organization", {
  identifier: Type.Optional(Type.Array(Identifier)),
  name: Type.Optional(Type.String()),
});
export type FhirOrganization = Static<typeof Organization>;

export const Practitioner = resource("Practitioner", {
  identifier: Type.Optional(Type.Array(Identifier)),
  name: Type.Optional(Type.Array(HumanName)),
});
export type FhirPractitioner = Static<typeof Practitioner>;

/** older senders name the care team's practitioner through a PractitionerRole */
export const PractitionerRole = resource("PractitionerRole", {
  identifier: Type.Optional(Type.Array(Identifier)),
  name: Type.Optional(Type.Array(HumanName)),
});

export const Encounter = resource("Encounter", {
  identifier: Type.Optional(Type.Array(Identifier)),
  status: Type.Optional(Type.String()),
  class: Type.Optional(Coding),
  priority: Type.Optional(CodeableConcept),
  serviceType: Type.Optional(CodeableConcept),
  period: Type.Optional(Period),
  hospitalization: Type.Optional(
    Type.Object(
      {
        admitSource: Type.Optional(CodeableConcept),
        dischargeDisposition: Type.Optional(CodeableConcept),
      },
      open,
    ),
  ),
});
export type FhirEncounter = Static<typeof Encounter>;

export const CoverageEligibilityRequest = resource("CoverageEligibilityRequest", {
  identifier: Type.Optional(Type.Array(Identifier)),
  status: Type.Optional(Type.String()),
  purpose: Type.Array(Type.Enum(["auth-requirements", "benefits", "discovery", "validation"]), {
    minItems: 1,
  }),
  patient: Reference,
  servicedDate: Type.Optional(FhirDate()),
  servicedPeriod: Type.Optional(Period),
  created: FhirDateTime(),
  provider: Reference,
  insurer: Reference,
  facility: Type.Optional(Reference),
  /** absent on discovery: the payer finds the patient's coverages by the Patient's identifiers */
  insurance: Type.Optional(
    Type.Array(Type.Object({ focal: Type.Optional(Type.Boolean()), coverage: Reference }, open)),
  ),
  extension: Extensions,
});
export type FhirEligibilityRequest = Static<typeof CoverageEligibilityRequest>;

/** the message envelope; each entry's resource is checked by its own schema above */
export const Bundle = Type.Object(
  {
    resourceType: Type.Literal("Bundle"),
    id: Type.Optional(Str(255)),
    meta: Meta,
    type: Type.Literal("message"),
    timestamp: Type.Optional(FhirDateTime()),
    entry: Type.Array(
      Type.Object(
        {
          fullUrl: Str(),
          resource: Type.Object({ resourceType: Str(64), id: Type.Optional(Type.String()) }, open),
        },
        open,
      ),
      { minItems: 2, maxItems: 1000 },
    ),
  },
  { ...open, description: "a FHIR R4 message Bundle as NPHIES sends it to a payer" },
);
export type FhirBundle = Static<typeof Bundle>;

/** a Task of a cancel-request or status-check: what it asks and about which Claim (focus.identifier) */
export const Task = resource("Task", {
  identifier: Type.Optional(Type.Array(Identifier)),
  status: Type.Optional(Type.String()),
  intent: Type.Optional(Type.String()),
  priority: Type.Optional(Type.String()),
  code: Type.Optional(CodeableConcept),
  focus: Type.Optional(Reference),
  authoredOn: Type.Optional(Type.String()),
  requester: Type.Optional(Reference),
  owner: Type.Optional(Reference),
  reasonCode: Type.Optional(CodeableConcept),
});
export type FhirTask = Static<typeof Task>;

const Attachment = Type.Object(
  {
    contentType: Type.Optional(Type.String()),
    data: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
  },
  open,
);

/** a payload's claim item sequence rides in an extension (ClaimItemSequence) */
const PayloadExtension = Type.Object(
  { url: Str(), valuePositiveInt: Type.Optional(Type.Integer({ minimum: 1 })) },
  open,
);

/** a provider's Communication about a Claim: its text and attachments (base64 data, checked on reading) */
export const Communication = resource("Communication", {
  identifier: Type.Optional(Type.Array(Identifier)),
  basedOn: Type.Optional(Type.Array(Reference)),
  status: Type.Optional(Type.String()),
  about: Type.Optional(Type.Array(Reference)),
  sent: Type.Optional(FhirDateTime()),
  payload: Type.Optional(
    Type.Array(
      Type.Object(
        {
          contentString: Type.Optional(Type.String()),
          contentAttachment: Type.Optional(Attachment),
          extension: Type.Optional(Type.Array(PayloadExtension)),
        },
        open,
      ),
    ),
  ),
});
export type FhirCommunication = Static<typeof Communication>;

/** the resource schemas by resourceType; other resource types are carried but not read */
export const RESOURCE_SCHEMAS = {
  MessageHeader,
  Claim,
  Patient,
  Coverage,
  Organization,
  Practitioner,
  PractitionerRole,
  Encounter,
  CoverageEligibilityRequest,
  Task,
  Communication,
};
