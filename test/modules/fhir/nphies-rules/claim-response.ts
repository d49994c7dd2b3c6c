import { reference } from "./refs.js";
import { bind, card, type Rule, required } from "./rule.js";

const INF = Number.POSITIVE_INFINITY;
const CS = "http://nphies.sa/terminology/CodeSystem/";
const ADJUDICATION = ["http://terminology.hl7.org/CodeSystem/adjudication", `${CS}ksa-adjudication`];
const REASON = [`${CS}adjudication-reason`];

/** cardinality (FHIR R4 ClaimResponse, narrowed by NPHIES: identifier, request, requestor, subType since v5.2) */
export const CLAIM_RESPONSE_CARDINALITY: Rule[] = [
  required("IC-00075", "ClaimResponse.id"),
  required("IC-00093", "ClaimResponse.meta"),
  card("IC-00094", "ClaimResponse.meta.profile", 1, INF),
  card("IC-00076", "ClaimResponse.identifier", 1, INF),
  required("IC-00104", "ClaimResponse.status"),
  required("IC-00107", "ClaimResponse.type"),
  // IG change log 5.2 (23/11/2023): "ClaimResponse.subType: changed to mandatory in All"
  required("IC-01567", "ClaimResponse.subType"),
  required("IC-00108", "ClaimResponse.use"),
  required("IC-00096", "ClaimResponse.patient"),
  required("IC-00071", "ClaimResponse.created"),
  required("IC-00080", "ClaimResponse.insurer"),
  required("IC-00103", "ClaimResponse.requestor"),
  required("IC-00102", "ClaimResponse.request"),
  required("IC-00095", "ClaimResponse.outcome"),
  // IG change log 3.4: the adjudication-outcome extensions became 0..1 (required by BV rules when complete)
  card("IC-00074", "ClaimResponse.extension:adjudication-outcome", 0, 1),
  card("IC-01346", "ClaimResponse.extension:adjudication-outcome", 0, 1),
  card("IC-00073", "ClaimResponse.extension:adjudication-outcome", 0, 1),
  card("IC-01351", "ClaimResponse.extension:adjudication-reissue", 0, 1),
  card("IC-01347", "ClaimResponse.extension:batch-identifier", 0, 1),
  card("IC-01348", "ClaimResponse.extension:batch-number", 0, 1),
  card("IC-01349", "ClaimResponse.extension:batch-period", 0, 1),
  card("IC-01350", "ClaimResponse.extension:diagnosisRelatedGroup", 0, 1),
  card("IC-01457", "ClaimResponse.extension:transferAuthorizationNumber", 0, 1),
  card("IC-01458", "ClaimResponse.extension:transferAuthorizationPeriod", 0, 1),
  card("IC-01459", "ClaimResponse.extension:transferAuthorizationProvider", 0, 1),
  required("IC-00092", "ClaimResponse.item.itemSequence"),
  required("IC-01431", "ClaimResponse.item.itemSequence"),
  required("IC-01353", "ClaimResponse.item.itemSequence"),
  card("IC-01352", "ClaimResponse.item.extension:adjudication-outcome", 0, 1),
  card("IC-01455", "ClaimResponse.item.extension:patientInvoice", 0, 1),
  card("IC-00081", "ClaimResponse.item.adjudication", 1, INF),
  required("IC-00083", "ClaimResponse.item.adjudication.category"),
  card("IC-00082", "ClaimResponse.item.adjudication.amount", 0, 1),
  required("IC-00087", "ClaimResponse.item.detail.detailSequence"),
  card("IC-00084", "ClaimResponse.item.detail.adjudication", 1, INF),
  required("IC-00086", "ClaimResponse.item.detail.adjudication.category"),
  // IG change log 3.9: detail and subDetail adjudication.amount 0..1
  card("IC-00085", "ClaimResponse.item.detail.adjudication.amount", 0, 1),
  required("IC-00091", "ClaimResponse.item.detail.subDetail.subDetailSequence"),
  card("IC-00088", "ClaimResponse.item.detail.subDetail.adjudication", 1, INF),
  required("IC-00090", "ClaimResponse.item.detail.subDetail.adjudication.category"),
  card("IC-00089", "ClaimResponse.item.detail.subDetail.adjudication.amount", 0, 1),
  required("IC-00106", "ClaimResponse.total.category"),
  required("IC-00105", "ClaimResponse.total.amount"),
  required("IC-00079", "ClaimResponse.insurance.sequence"),
  required("IC-00078", "ClaimResponse.insurance.focal"),
  required("IC-00077", "ClaimResponse.insurance.coverage"),
  required("IC-00072", "ClaimResponse.error.code"),
  card("IC-01345", "ClaimResponse.error.extension:expression", 0, 1),
  required("IC-00099", "ClaimResponse.processNote.number"),
  required("IC-00100", "ClaimResponse.processNote.text"),
  card("IC-00101", "ClaimResponse.processNote.type", 0, 1),
];

export const CLAIM_RESPONSE_BINDINGS: Rule[] = [
  bind("IB-00071", "ClaimResponse.outcome", ["http://hl7.org/fhir/remittance-outcome"]),
  bind("IB-00077", "ClaimResponse.status", ["http://hl7.org/fhir/fm-status"]),
  bind("IB-00080", "ClaimResponse.type", ["http://terminology.hl7.org/CodeSystem/claim-type"]),
  bind("IB-00078", "ClaimResponse.subType", [`${CS}claim-subtype`]),
  bind("IB-00081", "ClaimResponse.use", ["http://hl7.org/fhir/claim-use"]),
  bind("IB-00072", "ClaimResponse.payeeType", ["http://terminology.hl7.org/CodeSystem/payeetype"]),
  bind("IB-00062", "ClaimResponse.item.adjudication.category", ADJUDICATION),
  bind("IB-00063", "ClaimResponse.item.adjudication.reason", REASON),
  bind("IB-00064", "ClaimResponse.item.detail.adjudication.category", ADJUDICATION),
  bind("IB-00065", "ClaimResponse.item.detail.adjudication.reason", REASON),
  bind("IB-00066", "ClaimResponse.item.detail.subDetail.adjudication.category", ADJUDICATION),
  bind("IB-00067", "ClaimResponse.item.detail.subDetail.adjudication.reason", REASON),
  bind("IB-00079", "ClaimResponse.total.category", ADJUDICATION),
  bind("IB-00059", "ClaimResponse.error.code", [`${CS}adjudication-error`]),
  bind("IB-00076", "ClaimResponse.processNote.type", ["http://hl7.org/fhir/note-type"]),
  bind("IB-00388", "ClaimResponse.extension:adjudication-reissue.valueCodeableConcept", [
    `${CS}reissue-reason`,
  ]),
  // the generic extension binding: adjudication-outcome on the response and on each item
  bind("IB-00157", "ClaimResponse.extension:adjudication-outcome.valueCodeableConcept", [
    `${CS}adjudication-outcome`,
  ]),
  bind("IB-00157", "ClaimResponse.item.extension:adjudication-outcome.valueCodeableConcept", [
    `${CS}adjudication-outcome`,
  ]),
];

export const CLAIM_RESPONSE_REFERENCES: Rule[] = [
  reference("RE-00026", "ClaimResponse.communicationRequest"),
  reference("RE-00027", "ClaimResponse.insurance.claimResponse"),
  reference("RE-00028", "ClaimResponse.insurance.coverage"),
  reference("RE-00029", "ClaimResponse.insurer"),
  reference("RE-00030", "ClaimResponse.patient"),
  reference("RE-00031", "ClaimResponse.request"),
  reference("RE-00182", "ClaimResponse.extension:transferAuthorizationProvider.valueReference"),
];
