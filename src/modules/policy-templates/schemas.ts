import Type, { type Static } from "typebox";
import { CodeMessage, Money, Text } from "../../platform/http/schemas.js";

/** the spec's limit on benefit_code and sub_benefit_code */
const TemplateCode = () => Type.Integer({ minimum: 0, maximum: 9_999_999 });

const PolicyKey = { ph_erp_id: Text(1, 50), policy_no: Text(1, 255) };
const category_code = Text(1, 255);

export const CategoryBody = Type.Object({ ...PolicyKey, category_code, amount_eligible: Money() });
export type CategoryInput = Static<typeof CategoryBody>;

const SubBenefitFields = {
  sub_benefit_code: TemplateCode(),
  sub_benefit_description: Type.Optional(Text(0, 255)),
  limit: Money(),
};

export const BenefitCreateBody = Type.Object({
  ...PolicyKey,
  category_code,
  benefit_code: TemplateCode(),
  benefit_description: Type.Optional(Text(0, 255)),
  limit: Money(),
  sub_benefits: Type.Optional(Type.Array(Type.Object(SubBenefitFields), { maxItems: 1000 })),
});
export type BenefitCreateInput = Static<typeof BenefitCreateBody>;

export const SubBenefitCreateBody = Type.Object({
  ...PolicyKey,
  category_code,
  benefit_code: TemplateCode(),
  benefit_description: Type.Optional(Text(0, 255)),
  ...SubBenefitFields,
});
export type SubBenefitCreateInput = Static<typeof SubBenefitCreateBody>;

export const BenefitUpdateBody = Type.Object({
  ...PolicyKey,
  category_code,
  benefit_code: TemplateCode(),
  limit: Money(),
});
export type BenefitUpdateInput = Static<typeof BenefitUpdateBody>;

export const TemplateQuery = Type.Object(PolicyKey);

export const Created = Type.Object(CodeMessage);

export const CategoryView = Type.Object({
  ph_erp_id: Type.String(),
  policy_no: Type.String(),
  category_code: Type.String(),
  amount_eligible: Type.Number(),
  ...CodeMessage,
});

export const BenefitView = Type.Object({
  ph_erp_id: Type.String(),
  policy_no: Type.String(),
  category_code: Type.String(),
  benefit_code: Type.Integer(),
  benefit_description: Type.Union([Type.String(), Type.Null()]),
  limit: Type.Number(),
  ...CodeMessage,
});

const SubBenefitNode = Type.Object({
  sub_benefit_code: Type.Integer(),
  sub_benefit_description: Type.Union([Type.String(), Type.Null()]),
  limit: Type.Number(),
});
const BenefitNode = Type.Object({
  benefit_code: Type.Integer(),
  benefit_description: Type.Union([Type.String(), Type.Null()]),
  limit: Type.Number(),
  sub_benefits: Type.Array(SubBenefitNode),
});
export const CategoryNode = Type.Object({
  category_code: Type.String(),
  amount_eligible: Type.Number(),
  benefits: Type.Array(BenefitNode),
});
export type CategoryTemplate = Static<typeof CategoryNode>;

export const TemplateView = Type.Object({
  ph_erp_id: Type.String(),
  policy_no: Type.String(),
  categories: Type.Array(CategoryNode),
  ...CodeMessage,
});

/** what a patient may still use of the template's limits (GET /policy/patient/consumption/get) */
export const ConsumptionView = Type.Object({
  member_id: Type.String(),
  category_code: Type.String(),
  amount_eligible: Type.Number(),
  amount_exgratia: Type.Number(),
  amount_utilized: Type.Number(),
  benefit_consumption: Type.Array(
    Type.Object({ benefit_code: Type.Integer(), limit: Type.Number(), utilized: Type.Number() }),
  ),
  sub_benefit_consumption: Type.Array(
    Type.Object({
      sub_benefit_code: Type.Integer(),
      benefit_code: Type.Integer({ description: "the benefit it belongs to (beyond the spec)" }),
      limit: Type.Number(),
      utilized: Type.Number(),
    }),
  ),
  ...CodeMessage,
});
