import Type, { type Static } from "typebox";
import {
  CodeMessage,
  DateTime,
  Email,
  Enum,
  GENDERS,
  Identifier,
  MARITAL_STATUSES,
  RELATIONS,
  Text,
} from "../../platform/http/schemas.js";

/** the member fields a client may leave out (the bulk patient import takes the same) */
export const MemberOptionalFields = {
  name: Type.Optional(Text(1, 255)),
  card: Type.Optional(Text(1, 255)),
  email: Type.Optional(Email()),
  relation: Type.Optional(Enum(RELATIONS)),
  passport: Type.Optional(Text(1, 255)),
  visit_visa_number: Type.Optional(Text(1, 255)),
  phone_number: Type.Optional(Text(1, 255)),
  address: Type.Optional(Text(1, 255)),
  nationality: Type.Optional(Text(1, 255)),
};

const required = {
  national_id: Identifier(255),
  gender: Enum(GENDERS),
  marital_status: Enum(MARITAL_STATUSES),
  date_of_birth: DateTime(),
};

export const MemberCreateBody = Type.Object({
  member_id: Identifier(255, { description: "unique member (patient) identifier" }),
  ...required,
  ...MemberOptionalFields,
});
export type MemberCreateInput = Static<typeof MemberCreateBody>;

export const MemberUpdateBody = Type.Object({
  national_id: Type.Optional(required.national_id),
  gender: Type.Optional(required.gender),
  marital_status: Type.Optional(required.marital_status),
  date_of_birth: Type.Optional(required.date_of_birth),
  ...MemberOptionalFields,
});
export type MemberUpdateInput = Static<typeof MemberUpdateBody>;

export const MemberIdParams = Type.Object({ member_id: Text(1, 255) });

export const MemberCreated = Type.Object({
  member_id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  ...CodeMessage,
});

const Nullable = Type.Union([Type.String(), Type.Null()]);

export const MemberView = Type.Object({
  member_id: Type.String(),
  national_id: Nullable,
  gender: Type.String(),
  marital_status: Nullable,
  date_of_birth: Type.String({ description: "DATETIME" }),
  name: Nullable,
  card: Nullable,
  email: Nullable,
  relation: Nullable,
  passport: Nullable,
  visit_visa_number: Nullable,
  phone_number: Nullable,
  address: Nullable,
  nationality: Nullable,
  ...CodeMessage,
});
