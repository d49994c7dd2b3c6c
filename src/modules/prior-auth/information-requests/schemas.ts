import Type, { type Static } from "typebox";
import { CodeMessage, Text } from "../../../platform/http/schemas.js";

export const InformationRequestBody = Type.Object({
  transaction_id: Text(1, 255, { description: "the prior authorization's transaction_id" }),
  erp_reviewer_id: Text(1, 255, { description: "the reviewer user's username: who asks" }),
  content: Text(1, 10_000, { description: "what the provider is asked for" }),
  erp_item_ids: Type.Optional(
    Type.Array(Text(1, 255), {
      maxItems: 500,
      description: "the erp_item_id of each item of the request the question is about",
    }),
  ),
});
export type InformationRequestInput = Static<typeof InformationRequestBody>;

export const InformationRequestCreated = Type.Object({ id: Type.Integer(), ...CodeMessage });
