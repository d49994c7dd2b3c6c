import Type, { type Static } from "typebox";
import { CodeMessage, Enum, PROVIDER_TYPES, Text } from "../../platform/http/schemas.js";

const fields = {
  name: Text(1, 255),
  nphies_id: Type.Optional(Text(1, 50)),
  phone_number: Type.Optional(Text(1, 50)),
  city: Text(1, 100, { description: "a Saudi city or governorate, in English or Arabic, any case" }),
  type: Type.Optional(Enum(PROVIDER_TYPES)),
  lng: Type.Optional(Text(1, 50)),
  lat: Type.Optional(Text(1, 50)),
};

export const ProviderCreateBody = Type.Object({
  ...fields,
  cchi_no: Text(1, 50, { description: "unique CCHI number" }),
});
export type ProviderCreateInput = Static<typeof ProviderCreateBody>;

export const ProviderUpdateBody = Type.Object({
  cchi_no: Type.Optional(Text(1, 50, { description: "a new CCHI number; must not be in use" })),
  name: Type.Optional(fields.name),
  nphies_id: fields.nphies_id,
  phone_number: fields.phone_number,
  city: Type.Optional(fields.city),
  type: fields.type,
  lng: fields.lng,
  lat: fields.lat,
});
export type ProviderUpdateInput = Static<typeof ProviderUpdateBody>;

export const CchiNoParams = Type.Object({ cchi_no: Text(1, 50) });

export const ProviderCreated = Type.Object({
  internal_id: Type.Integer(),
  cchi_no: Type.String(),
  ...CodeMessage,
});

const Nullable = Type.Union([Type.String(), Type.Null()]);

export const ProviderView = Type.Object({
  internal_id: Type.Integer(),
  name: Type.String(),
  nphies_id: Nullable,
  phone_number: Nullable,
  city: Type.String({ description: "the city's English name" }),
  cchi_no: Type.String(),
  type: Nullable,
  lng: Nullable,
  lat: Nullable,
  ...CodeMessage,
});
