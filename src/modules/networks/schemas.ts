import Type, { type Static } from "typebox";
import { CodeMessage, Paging, Text } from "../../platform/http/schemas.js";

export const NetworkIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, description: "the network's internal id" }),
});

export const NetworkCreateBody = Type.Object({
  name: Text(1, 255, { description: "unique name; also the network_code of patient-policy links" }),
  is_vip: Type.Optional(Type.Boolean({ default: false })),
});
export type NetworkCreateInput = Static<typeof NetworkCreateBody>;

export const NetworkCreated = Type.Object({
  internal_id: Type.Integer(),
  name: Type.String(),
  is_vip: Type.Boolean(),
  ...CodeMessage,
});

export const NetworkUpdateBody = Type.Object({
  name: Type.Optional(Text(1, 255)),
  is_vip: Type.Optional(Type.Boolean()),
});
export type NetworkUpdateInput = Static<typeof NetworkUpdateBody>;

export const NetworkSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  is_vip: Type.Boolean(),
});

export const NetworkUpdated = Type.Object({ ...NetworkSummary.properties, ...CodeMessage });

export const NetworkFindAllQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255, description: "case-insensitive partial match" })),
  is_vip: Type.Optional(Type.Boolean()),
  ...Paging,
});
export type NetworkFilter = Static<typeof NetworkFindAllQuery>;

export const NetworkPage = Type.Object({
  total_count: Type.Integer(),
  ...CodeMessage,
  data: Type.Array(NetworkSummary),
});

export const NetworkDetail = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  is_vip: Type.Boolean(),
  provider_count: Type.Integer(),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
  ...CodeMessage,
});

export const NetworkProviderBody = Type.Object({
  cchi_no: Text(1, 50, { description: "the provider to add" }),
});
export const NetworkProviderParams = Type.Object({ id: NetworkIdParams.properties.id, cchi_no: Text(1, 50) });

export const NetworkProviderLinked = Type.Object({
  network_id: Type.Integer(),
  cchi_no: Type.String(),
  ...CodeMessage,
});

export const NetworkProviderPage = Type.Object({
  total_count: Type.Integer(),
  ...CodeMessage,
  data: Type.Array(
    Type.Object({
      internal_id: Type.Integer(),
      cchi_no: Type.String(),
      name: Type.String(),
      city: Type.String(),
      type: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

export const PagingQuery = Type.Object({ ...Paging });
export const CodeMessageBody = Type.Object({ ...CodeMessage });
