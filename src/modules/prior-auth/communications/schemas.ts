import Type, { type Static } from "typebox";
import { AnyDateTime, CodeMessage, Text } from "../../../platform/http/schemas.js";

export const CommunicationBody = Type.Object({
  transaction_id: Text(1, 255, { description: "the prior authorization's transaction_id" }),
  user_name: Type.Optional(Text(0, 255)),
  title: Type.Optional(Text(0, 255)),
  content: Type.Optional(Text(0, 10_000)),
  path: Type.Optional(Text(0, 1000, { description: "file path or URL of an attachment" })),
  size: Type.Optional(Text(0, 50, { description: "the attachment's size, as text" })),
  date: Type.Optional(AnyDateTime({ description: "full ISO 8601 date-time" })),
});
export type CommunicationInput = Static<typeof CommunicationBody>;

export const CommunicationCreated = Type.Object({ id: Type.Integer(), ...CodeMessage });
