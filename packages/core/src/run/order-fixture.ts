/** The large order the patch, continuation and streamed-answer tests share. */
import { Type } from '@sinclair/typebox';

export const Item = Type.Object({ sku: Type.String(), qty: Type.Integer(), price: Type.Number() }, { additionalProperties: false });
export const Order = Type.Object({ customer: Type.String(), items: Type.Array(Item) }, { additionalProperties: false });

export interface OrderValue {
  customer: string;
  items: { sku: string; qty: number; price: number }[];
}

/** A large order (about 1,500 tokens as JSON): large enough for a patch re-ask. */
const order = (): OrderValue => ({
  customer: 'Noor Haddad',
  items: Array.from({ length: 120 }, (_, index) => ({ sku: `SKU-${index}`, qty: 1 + (index % 5), price: 10 + index / 4 })),
});
export const GOOD = order();
export const GOOD_TEXT = JSON.stringify(GOOD, null, 2);

/** The order as JSON text with item `index`'s `field` set to `value`. */
const withItem = (index: number, field: string, value: unknown): string => {
  const copy = order() as unknown as { items: Record<string, unknown>[] };
  (copy.items[index] as Record<string, unknown>)[field] = value;
  return JSON.stringify(copy, null, 2);
};
/** The order with a price written as a word. */
export const BAD_PRICE = withItem(17, 'price', 'twenty');
