import { prng } from '../recovery/corpus';
import { int, makeOrder, pick, type Random, sizes, statuses } from './random-order';
import type { Order } from './order-schema';

/** A path into a value. */
export type Path = readonly (string | number)[];

/** Defect classes of the independent corpus (none shares a generator with the main corpus). */
export type IndependentClass =
  | 'two-values'
  | 'enum-casing'
  | 'number-with-unit'
  | 'nested-item-type'
  | 'extra-nested-field'
  | 'missing-nested-field'
  | 'many-bad-items'
  | 'python-literals'
  | 'comments'
  | 'unquoted-keys'
  | 'truncated';

/**
 * A defect in the value. `constraint` lists the words that state what is expected there (a type
 * name, the allowed values, "required", "additional"...): a model fixes the defect when feedback
 * names its path together with one of them, in whatever format.
 */
export interface ValueFault {
  readonly path: Path;
  readonly kind: 'type' | 'enum' | 'missing' | 'extra';
  readonly constraint: readonly string[];
  /** Writes the defect into a copy of the value. */
  readonly apply: (value: Record<string, unknown>) => void;
}

/** A defect in the text; fixed when feedback says the reply is not one parseable, complete JSON value. */
export type TextFault =
  | { readonly kind: 'python-literals' }
  | { readonly kind: 'comments' }
  | { readonly kind: 'unquoted-keys' }
  | { readonly kind: 'truncated'; readonly keep: number }
  | { readonly kind: 'two-values'; readonly draft: unknown; readonly label: string };

/** One defective reply and the value the model meant. */
export interface IndependentItem {
  readonly id: string;
  readonly classes: readonly IndependentClass[];
  readonly group: IndependentClass | 'several';
  readonly prompt: string;
  readonly source: Order;
  readonly valueFaults: readonly ValueFault[];
  readonly textFaults: readonly TextFault[];
  readonly indent: number;
}

const people = ['Noor Haddad', 'Jonas Weber', 'Aiko Tanaka', 'Mateo Rossi', 'Priya Nair', 'Ewa Kowalska', 'Sam Okafor', 'Lena Berg'];
const catalogue = ['TEE-ORG', 'HOOD-GRY', 'CAP-BLK', 'SOCK-3PK', 'BAG-TOTE', 'MUG-CER', 'SCARF-WL', 'GLOVE-LTH'];

function promptOf(order: Order): string {
  const lines = order.items.map((item) => `${item.qty} x ${item.sku} size ${item.size} at ${item.price} EUR${item.tags.length ? ` (${item.tags.join(', ')})` : ''}`);
  return `From: ${order.customer.name} <${order.customer.email}>\nStatus: ${order.status}. Gift: ${order.gift ? 'yes' : 'no'}. Coupon: ${order.coupon ?? 'none'}.\n${lines.join('\n')}`;
}

const itemsOf = (value: Record<string, unknown>) => value.items as Record<string, unknown>[];
const typeWords = { number: ['number'], integer: ['integer', 'number'], string: ['string'] } as const;

/** Value faults by class; each picks its place in the order. */
function valueFault(random: Random, klass: IndependentClass, order: Order): ValueFault[] {
  const index = int(random, 0, order.items.length - 1);
  const item = order.items[index] as Order['items'][number];
  switch (klass) {
    case 'enum-casing': {
      if (random() < 0.5) {
        const wrong = pick(random, [order.status.toUpperCase(), `${order.status[0]?.toUpperCase()}${order.status.slice(1)}`, ` ${order.status} `]);
        return [{ path: ['status'], kind: 'enum', constraint: [...statuses], apply: (value) => void (value.status = wrong) }];
      }
      const wrong = item.size.toLowerCase();
      return [{ path: ['items', index, 'size'], kind: 'enum', constraint: [...sizes].map((size) => `"${size}"`), apply: (value) => void ((itemsOf(value)[index] as Record<string, unknown>).size = wrong) }];
    }
    case 'number-with-unit': {
      const wrong = pick(random, [`${item.price} EUR`, `€${item.price.toFixed(2)}`, `${item.price.toFixed(2)} euros`]);
      return [{ path: ['items', index, 'price'], kind: 'type', constraint: typeWords.number, apply: (value) => void ((itemsOf(value)[index] as Record<string, unknown>).price = wrong) }];
    }
    case 'nested-item-type': {
      const words = ['one', 'two', 'three', 'four', 'five', 'six'];
      const wrong = pick(random, [String(item.qty), words[item.qty - 1] as string, `${item.qty} pcs`]);
      return [{ path: ['items', index, 'qty'], kind: 'type', constraint: typeWords.integer, apply: (value) => void ((itemsOf(value)[index] as Record<string, unknown>).qty = wrong) }];
    }
    case 'extra-nested-field': {
      if (random() < 0.5) {
        const [key, extra] = pick(random, [['discount', 0.1], ['colour', 'navy'], ['in_stock', true]] as const);
        return [{ path: ['items', index, key], kind: 'extra', constraint: ['additional', 'unknown', 'not allowed', 'remove'], apply: (value) => void ((itemsOf(value)[index] as Record<string, unknown>)[key] = extra) }];
      }
      return [{ path: ['customer', 'phone'], kind: 'extra', constraint: ['additional', 'unknown', 'not allowed', 'remove'], apply: (value) => void ((value.customer as Record<string, unknown>).phone = '+49 30 1234567') }];
    }
    case 'missing-nested-field': {
      const key = pick(random, ['sku', 'size', 'tags'] as const);
      return [{ path: ['items', index, key], kind: 'missing', constraint: ['required', 'missing'], apply: (value) => void delete (itemsOf(value)[index] as Record<string, unknown>)[key] }];
    }
    case 'many-bad-items':
      return order.items.flatMap((entry, at) =>
        at % 4 === 3
          ? []
          : [{ path: ['items', at, 'price'], kind: 'type' as const, constraint: typeWords.number, apply: (value: Record<string, unknown>) => void ((itemsOf(value)[at] as Record<string, unknown>).price = `${entry.price} EUR`) }],
      );
    default:
      return [];
  }
}

function textFault(random: Random, klass: IndependentClass, order: Order): TextFault[] {
  switch (klass) {
    case 'python-literals':
      return [{ kind: 'python-literals' }];
    case 'comments':
      return [{ kind: 'comments' }];
    case 'unquoted-keys':
      return [{ kind: 'unquoted-keys' }];
    case 'truncated':
      return [{ kind: 'truncated', keep: 0.5 + random() * 0.4 }];
    case 'two-values': {
      // Half the time a valid draft that differs, half the time an example shape with placeholders.
      const draft = random() < 0.5 ? { ...order, status: pick(random, statuses.filter((status) => status !== order.status)) } : { customer: { name: 'string', email: 'string' }, status: 'pending | paid | shipped', gift: 'boolean', coupon: 'string or null', items: [] };
      return [{ kind: 'two-values', draft, label: pick(random, ['Draft:', 'Example of the shape:', 'First attempt:']) }];
    }
    default:
      return [];
  }
}

const VALUE_CLASSES: readonly IndependentClass[] = ['enum-casing', 'number-with-unit', 'nested-item-type', 'extra-nested-field', 'missing-nested-field', 'many-bad-items'];
const TEXT_CLASSES: readonly IndependentClass[] = ['two-values', 'python-literals', 'comments', 'unquoted-keys', 'truncated'];
/** Every class of the corpus. */
export const INDEPENDENT_CLASSES: readonly IndependentClass[] = [...TEXT_CLASSES, ...VALUE_CLASSES];

/**
 * The independent corpus: `perClass` items of each class, then `several` items with one text and
 * one value defect. Seeded, so every run measures the same replies.
 */
export function buildIndependentCorpus(options: { seed?: number; perClass?: number; several?: number } = {}): IndependentItem[] {
  const { seed = 20_261_123, perClass = 16, several = 24 } = options;
  const random = prng(seed);
  const items: IndependentItem[] = [];
  const make = (classes: readonly IndependentClass[], group: IndependentItem['group']) => {
    const order = makeOrder(random, classes.includes('many-bad-items') ? 40 : int(random, 1, 4), { people, catalogue });
    items.push({
      id: `${group}-${items.length}`,
      classes,
      group,
      prompt: promptOf(order),
      source: order,
      valueFaults: classes.flatMap((klass) => valueFault(random, klass, order)),
      textFaults: classes.flatMap((klass) => textFault(random, klass, order)),
      indent: random() < 0.5 ? 2 : 0,
    });
  };
  for (const klass of INDEPENDENT_CLASSES) for (let count = 0; count < perClass; count++) make([klass], klass);
  for (let count = 0; count < several; count++) make([pick(random, TEXT_CLASSES), pick(random, VALUE_CLASSES)], 'several');
  return items;
}
