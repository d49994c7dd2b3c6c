import Type, { type Static } from "typebox";

export const OutcomesBody = Type.Object({
  batch_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "an analysed batch whose results are still kept",
  }),
  providers: Type.Array(
    Type.Object({
      provider_id: Type.String({ minLength: 1, maxLength: 255, description: "as in that batch" }),
      fraud: Type.Boolean({ description: "true: confirmed; false: cleared" }),
    }),
    { minItems: 1, maxItems: 10_000 },
  ),
});
export type OutcomesInput = Static<typeof OutcomesBody>;

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Model = Type.Object({
  status: Type.Union([Type.Literal("none"), Type.Literal("training"), Type.Literal("ready")]),
  examples: Type.Integer({ description: "outcomes kept: one per batch and provider" }),
  positives: Type.Integer({ description: "of them confirmed fraud" }),
  trained_at: Nullable(Type.String()),
  validation: Nullable(
    Type.Object(
      { roc_auc: Type.Number(), pr_auc: Type.Number() },
      { description: "on held-out outcomes: providers scored by models that never saw them" },
    ),
  ),
  features: Type.Array(
    Type.Object({
      name: Type.String(),
      weight: Type.Number({ description: "logit per standard deviation" }),
    }),
  ),
  active: Type.Boolean({ description: "whether analyses rank providers with this model" }),
  minimum: Type.Object({
    examples: Type.Integer(),
    per_class: Type.Integer(),
    validation_roc_auc: Type.Number(),
  }),
  message: Nullable(Type.String()),
});
export type ModelView = Static<typeof Model>;

export const OutcomesAccepted = Type.Object({
  accepted: Type.Integer(),
  replaced: Type.Integer(),
  rejected: Type.Array(Type.Object({ provider_id: Type.String(), reason: Type.String() })),
  model: Model,
});
