import Type from "typebox";
import { Enum } from "../../platform/http/schemas.js";

export const CODE_SYSTEMS = ["icd10"] as const;
export type CodeSystem = (typeof CODE_SYSTEMS)[number];

export const SystemParams = Type.Object({
  system: Enum(CODE_SYSTEMS, { description: "icd10: ICD-10 diagnoses" }),
});
export const SystemCodeParams = Type.Object({
  ...SystemParams.properties,
  code: Type.String({ minLength: 1, maxLength: 32 }),
});

export const ImportQuery = Type.Object({
  mode: Type.Optional(
    Enum(["merge", "replace"] as const, {
      description: "merge (default) adds and updates codes; replace makes the set exactly the file",
    }),
  ),
});

export const JsonCodeList = Type.Array(
  Type.Object({
    code: Type.String({ minLength: 1, maxLength: 32 }),
    description: Type.String({ maxLength: 2000 }),
  }),
  { minItems: 1 },
);

/** TSV or CSV text (`code<TAB>description` per line, optional header) or a JSON list */
export const ImportBody = Type.Union([Type.String({ minLength: 1 }), JsonCodeList]);

export const ImportResult = Type.Object({
  system: Type.String(),
  imported: Type.Integer(),
  total: Type.Integer(),
});

export const CodeLookup = Type.Object({
  system: Type.String(),
  code: Type.String({ description: "normalized: upper case, without the dot" }),
  description: Type.Union([Type.String(), Type.Null()]),
  matched_by: Type.String({
    description: "code_set (in the tenant's loaded set) or structure (no set loaded)",
  }),
});

export const CodeSetList = Type.Object({
  data: Type.Array(
    Type.Object({
      system: Type.String(),
      entry_count: Type.Integer(),
      updated_at: Type.String({ format: "date-time" }),
    }),
  ),
});
