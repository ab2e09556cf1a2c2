import { type Static, Type } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';

const Size = Type.Union([Type.Literal('S'), Type.Literal('M'), Type.Literal('L')]);

/** An order extracted from a customer email: nested objects, an array of items, enums, booleans, nulls. */
export const Order = Type.Object(
  {
    customer: Type.Object({ name: Type.String(), email: Type.String({ format: 'email' }) }, { additionalProperties: false }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('paid'), Type.Literal('shipped')]),
    gift: Type.Boolean(),
    coupon: Type.Union([Type.String(), Type.Null()]),
    items: Type.Array(
      Type.Object({ sku: Type.String(), qty: Type.Integer({ minimum: 1 }), price: Type.Number(), size: Size, tags: Type.Array(Type.String()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

export type Order = Static<typeof Order>;

/** The system prompt every strategy sends: the task and the JSON Schema. */
export const orderSystem = `You extract orders from customer emails. Answer with one JSON object matching this JSON Schema:\n${JSON.stringify(Order)}`;

let validator: ValidateFunction | undefined;
/** {@link Order} checked by plain ajv (`allErrors`) with the one format the schema uses: a baseline without Keel. */
export function rawOrderValidator(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true });
    ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    validator = ajv.compile(Order);
  }
  return validator;
}
