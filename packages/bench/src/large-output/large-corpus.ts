import { prng } from '../recovery/corpus';
import { int, makeOrder, pick, type Random } from '../independent/random-order';
import { tokens } from '../recovery/strategies';
import type { IndependentItem, ValueFault } from '../independent/independent-corpus';
import type { Order } from '../independent/order-schema';

/** Classes of the large-output slice. */
export type LargeClass = 'one-field' | 'two-fields' | 'three-fields' | 'cut' | 'cut-and-field';

/** One large extraction: the reply the model means, its defects, and the token limit that cuts it. */
export interface LargeItem extends IndependentItem {
  readonly largeClass: LargeClass;
  /** Output tokens of the value the model means, as it writes it. */
  readonly outputTokens: number;
  /** The request's `maxTokens` when the reply is cut at the token limit. */
  readonly maxTokens?: number;
}

const people = ['Noor Haddad', 'Jonas Weber', 'Aiko Tanaka', 'Mateo Rossi', 'Priya Nair', 'Ewa Kowalska'];
const catalogue = ['TEE-ORG', 'HOOD-GRY', 'CAP-BLK', 'SOCK-3PK', 'BAG-TOTE', 'MUG-CER', 'SCARF-WL', 'GLOVE-LTH', 'BELT-BRN', 'SHIRT-WHT'];
const words = ['one', 'two', 'three', 'four', 'five', 'six'];

const itemAt = (value: Record<string, unknown>, index: number) => (value.items as Record<string, unknown>[])[index] as Record<string, unknown>;

/** One defect a model must fix (none a lossless local reading can): a price with its unit, a quantity in words, a missing or an extra field. */
function fault(random: Random, order: Order, taken: Set<number>): ValueFault {
  let index = int(random, 0, order.items.length - 1);
  while (taken.has(index)) index = (index + 1) % order.items.length;
  taken.add(index);
  const item = order.items[index] as Order['items'][number];
  switch (int(random, 0, 3)) {
    case 0: {
      const wrong = `${item.price.toFixed(2)} EUR`;
      return { path: ['items', index, 'price'], kind: 'type', constraint: ['number'], apply: (value) => void (itemAt(value, index).price = wrong) };
    }
    case 1: {
      const wrong = words[item.qty - 1] as string;
      return { path: ['items', index, 'qty'], kind: 'type', constraint: ['integer', 'number'], apply: (value) => void (itemAt(value, index).qty = wrong) };
    }
    case 2: {
      const key = pick(random, ['sku', 'size', 'tags'] as const);
      return { path: ['items', index, key], kind: 'missing', constraint: ['required', 'missing'], apply: (value) => void delete itemAt(value, index)[key] };
    }
    default: {
      const [key, extra] = pick(random, [['discount', 0.1], ['colour', 'navy'], ['in_stock', true]] as const);
      return { path: ['items', index, key], kind: 'extra', constraint: ['additional', 'unknown', 'not allowed', 'remove'], apply: (value) => void (itemAt(value, index)[key] = extra) };
    }
  }
}

const FIELDS: Readonly<Record<LargeClass, number>> = { 'one-field': 1, 'two-fields': 2, 'three-fields': 3, cut: 0, 'cut-and-field': 1 };
/** The classes, in report order. */
export const LARGE_CLASSES: readonly LargeClass[] = ['one-field', 'two-fields', 'three-fields', 'cut', 'cut-and-field'];

/**
 * The large-output slice: extractions of 1k–8k output tokens (20 to 150 order items, written with
 * 2-space indentation) with 1–3 bad fields, and replies cut at a token limit (45–85% of the
 * output), with or without a bad field. Seeded.
 */
export function buildLargeCorpus(options: { seed?: number; perClass?: number } = {}): LargeItem[] {
  const { seed = 20_261_124, perClass = 16 } = options;
  const random = prng(seed);
  const items: LargeItem[] = [];
  for (const largeClass of LARGE_CLASSES) {
    for (let count = 0; count < perClass; count++) {
      const order = makeOrder(random, int(random, 20, 150), { people, catalogue });
      const taken = new Set<number>();
      const valueFaults = Array.from({ length: FIELDS[largeClass] }, () => fault(random, order, taken));
      const outputTokens = tokens(JSON.stringify(order, null, 2));
      const cut = largeClass === 'cut' || largeClass === 'cut-and-field';
      const lines = order.items.map((item) => `${item.qty} x ${item.sku} size ${item.size} at ${item.price} EUR${item.tags.length ? ` (${item.tags.join(', ')})` : ''}`);
      items.push({
        id: `${largeClass}-${items.length}`,
        classes: [],
        group: 'several',
        largeClass,
        prompt: `From: ${order.customer.name} <${order.customer.email}>\nStatus: ${order.status}. Gift: ${order.gift ? 'yes' : 'no'}. Coupon: ${order.coupon ?? 'none'}.\n${lines.join('\n')}`,
        source: order,
        valueFaults,
        textFaults: [],
        indent: 2,
        outputTokens,
        ...(cut ? { maxTokens: Math.round(outputTokens * (0.45 + random() * 0.4)) } : {}),
      });
    }
  }
  return items;
}
