import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** A refund decision. */
export const RefundDecision = Type.Object(
  {
    action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]),
    amount: Type.Number(),
    reason: Type.String(),
  },
  { additionalProperties: false },
);

/** A create-task tool call. */
export const CreateTask = Type.Object(
  {
    project_id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    due_date: Type.String({ format: 'date-time' }),
    tags: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

/** A nested extraction of an order email. */
export const OrderExtraction = Type.Object(
  {
    customer: Type.Object({ name: Type.String(), email: Type.String({ format: 'email' }) }, { additionalProperties: false }),
    items: Type.Array(
      Type.Object(
        {
          sku: Type.String(),
          qty: Type.Integer({ minimum: 1 }),
          category: Type.Union([Type.Literal('hardware'), Type.Literal('software'), Type.Literal('service')]),
        },
        { additionalProperties: false },
      ),
    ),
    priority: Type.Union([Type.Literal('low'), Type.Literal('normal'), Type.Literal('high')]),
  },
  { additionalProperties: false },
);

export type RefundDecision = Static<typeof RefundDecision>;
export type CreateTask = Static<typeof CreateTask>;
export type OrderExtraction = Static<typeof OrderExtraction>;

export type SchemaName = 'refund' | 'task' | 'extraction';

/** Each schema with the system prompt every strategy sends (the task and the JSON Schema). */
export const schemas: Readonly<Record<SchemaName, { readonly schema: TSchema; readonly system: string }>> = {
  refund: {
    schema: RefundDecision,
    system: `You decide refund requests for an online shop. Answer with one JSON object matching this JSON Schema:\n${JSON.stringify(RefundDecision)}`,
  },
  task: {
    schema: CreateTask,
    system: `You turn requests into create_task calls for the project tracker. Answer with one JSON object matching this JSON Schema:\n${JSON.stringify(CreateTask)}`,
  },
  extraction: {
    schema: OrderExtraction,
    system: `You extract orders from customer emails. Answer with one JSON object matching this JSON Schema:\n${JSON.stringify(OrderExtraction)}`,
  },
};
