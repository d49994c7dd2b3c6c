import Type, { type Static } from "typebox";
import { CodeMessage, Email, Paging, Text } from "../../platform/http/schemas.js";

export const UserCreateBody = Type.Object({
  username: Text(1, 255, { description: "the reviewer's username (erp_reviewer_id, reopen username)" }),
  name: Type.Optional(Text(1, 255)),
  email: Type.Optional(Email()),
});
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
