import Type, { type Static } from "typebox";
import { CodeMessage, Email, Paging, Text } from "../../platform/http/schemas.js";
import { MIN_PASSWORD_LENGTH } from "./passwords.js";

const Password = () =>
  Type.String({
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: 1024,
    description: `signs the user in to the reviewer console (${MIN_PASSWORD_LENGTH} characters or more); only a hash is kept`,
  });

export const UserCreateBody = Type.Object({
  username: Text(1, 255, { description: "the reviewer's username (erp_reviewer_id, reopen username)" }),
  name: Type.Optional(Text(1, 255)),
  email: Type.Optional(Email()),
  password: Type.Optional(Password()),
});

export const UserParams = Type.Object({ username: Text(1, 255) });

export const UserUpdateBody = Type.Object({
  password: Type.Optional(Password()),
  name: Type.Optional(Text(1, 255)),
  email: Type.Optional(Email()),
  active: Type.Optional(
    Type.Boolean({ description: "an inactive user cannot sign in; false also ends the user's sessions" }),
  ),
  unlock: Type.Optional(
    Type.Boolean({ description: "true lifts the user's console sign-in lockouts, from every source" }),
  ),
});
export type UserUpdateInput = Static<typeof UserUpdateBody>;
export type UserCreateInput = Static<typeof UserCreateBody>;

export const UserCreated = Type.Object({ id: Type.Integer(), username: Type.String(), ...CodeMessage });

export const UserFindAllQuery = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 255, description: "case-insensitive partial match" })),
  ...Paging,
});
export type UserFilter = Static<typeof UserFindAllQuery>;

const Nullable = Type.Union([Type.String(), Type.Null()]);

export const UserPage = Type.Object({
  total_count: Type.Integer(),
  ...CodeMessage,
  data: Type.Array(
    Type.Object({ id: Type.Integer(), username: Type.String(), name: Nullable, email: Nullable }),
  ),
});

export const Message = Type.Object({ ...CodeMessage });
