import type { Order } from './order-schema';

/** A seeded source of numbers in [0, 1). */
export type Random = () => number;

/** One element of `list`, chosen by `random`. */
export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

/** A whole number from `min` to `max`, both included. */
export const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

const tagWords = ['cotton', 'gift-wrap', 'sale', 'eco', 'limited', 'bundle'];
/** The sizes an item comes in. */
export const sizes = ['S', 'M', 'L'] as const;
/** The statuses an order may have. */
export const statuses = ['pending', 'paid', 'shipped'] as const;

/** The names and SKUs a corpus draws its orders from. */
export interface OrderPools {
  readonly people: readonly string[];
  readonly catalogue: readonly string[];
}

/** An order of `itemCount` items drawn from `pools` by `random`: the same seed, the same order. */
export function makeOrder(random: Random, itemCount: number, pools: OrderPools): Order {
  const name = pick(random, pools.people);
  return {
    customer: { name, email: `${name.toLowerCase().replace(' ', '.')}@example.net` },
    status: pick(random, statuses),
    gift: random() < 0.3,
    coupon: random() < 0.4 ? `SAVE${int(random, 5, 30)}` : null,
    items: Array.from({ length: itemCount }, () => ({
      sku: pick(random, pools.catalogue),
      qty: int(random, 1, 6),
      price: int(random, 300, 12_000) / 100,
      size: pick(random, sizes),
      tags: [...new Set(Array.from({ length: int(random, 0, 2) }, () => pick(random, tagWords)))],
    })),
  };
}
