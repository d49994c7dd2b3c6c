import { CS, ICD10_AM } from "../../reference/nphies-fhir.js";
import type { CreateInput } from "../prior-auth/schemas.js";
import type { Entry, Message } from "./bundle.js";
import type { FhirClaim, FhirEncounter } from "./schemas.js";
import { codeIn } from "./values.js";

/** A Claim's diagnoses and encounter as the engine's request takes them. */

/** the ICD-10-AM coding of a diagnosis, or the first coded one (NPHIES has validated the code) */
const diagnosisCoding = (concept: FhirClaim["diagnosis"][number]["diagnosisCodeableConcept"]) =>
  codeIn(concept, ICD10_AM) ?? concept.coding.find((coding) => coding.code !== undefined);

export function diagnosesOf(claim: Entry<FhirClaim>, message: Message): CreateInput["diagnoses"] {
  const diagnoses = claim.resource.diagnosis.map((diagnosis, index) => {
    const path = `${claim.path}.diagnosis[${index}]`;
    const coding = diagnosisCoding(diagnosis.diagnosisCodeableConcept);
    if (coding?.code === undefined)
      message.problems.add(
        `${path}.diagnosisCodeableConcept.coding`,
        `must hold a coded diagnosis (${ICD10_AM})`,
      );
    const type = diagnosis.type?.map((concept) => codeIn(concept, `${CS}diagnosis-type`)?.code);
    return {
      type: type?.includes("principal") ? ("primary" as const) : ("secondary" as const),
      code: coding?.code ?? "",
      ...(coding?.display ? { name: coding.display.slice(0, 255) } : {}),
    };
  });
  const principal = diagnoses.filter((diagnosis) => diagnosis.type === "primary").length;
  if (principal > 1)
    message.problems.add(
      `${claim.path}.diagnosis`,
      `must hold one diagnosis of type principal (${CS}diagnosis-type), found ${principal}`,
    );
  // none typed principal: the first by sequence is, as a provider lists its main diagnosis first
  if (principal === 0) {
    const first = claim.resource.diagnosis.reduce(
      (lowest, diagnosis, index, all) =>
        diagnosis.sequence < (all[lowest]?.sequence ?? Number.POSITIVE_INFINITY) ? index : lowest,
      0,
    );
    return diagnoses.map((diagnosis, index) =>
      index === first ? { ...diagnosis, type: "primary" as const } : diagnosis,
    );
  }
  return diagnoses;
}

export function encounterOf(encounter: FhirEncounter): CreateInput["encounter"] {
  const text = (value: string | undefined) => value?.slice(0, 255);
  const fields = {
    encounter_id: text(encounter.identifier?.[0]?.value ?? encounter.id),
    encounter_status: text(encounter.status),
    encounter_class: text(encounter.class?.code),
    encounter_priority: text(encounter.priority?.coding?.[0]?.code),
    encounter_start_date: text(encounter.period?.start),
    encounter_end_date: text(encounter.period?.end),
    encounter_admit_source: text(encounter.hospitalization?.admitSource?.coding?.[0]?.code),
    encounter_discharge: text(encounter.hospitalization?.dischargeDisposition?.coding?.[0]?.code),
    encounter_department: text(encounter.serviceType?.coding?.[0]?.code),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
