/** Reading FHIR values the way every NPHIES message reader here does. */

export type Coded =
  | { coding?: { system?: string; code?: string; display?: string }[]; text?: string }
  | undefined;

/** the code of a concept's coding in `system`, if any */
export const codeIn = (concept: Coded, system: string) =>
  concept?.coding?.find((coding) => coding.system === system);

/** a FHIR date or dateTime as the JSON API's instant (UTC, milliseconds) */
export const instantOf = (value: string): string =>
  new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toISOString();

/** the value of a Coverage's class of `type` (plan: the policy; group: the policy holder), when sent */
export const coverageClass = (
  coverage: { class?: { type: { coding?: { code?: string }[] }; value: string }[] | undefined },
  type: "plan" | "group",
) => coverage.class?.find((entry) => entry.type.coding?.some((coding) => coding.code === type))?.value;

/** every value of a resource's identifiers */
export const identifierValues = (resource: { identifier?: { value?: string }[] | undefined } | undefined) =>
  (resource?.identifier ?? []).flatMap((identifier) => (identifier.value ? [identifier.value] : []));

/** an organization's licence in `system` (provider-license, payer-license): how NPHIES names parties */
export const licenceOf = (
  organization: { identifier?: { system?: string; value?: string }[] | undefined } | undefined,
  system: string,
) => organization?.identifier?.find((identifier) => identifier.system === system)?.value;
