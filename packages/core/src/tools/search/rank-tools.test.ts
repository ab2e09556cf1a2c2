import { describe, expect, it } from 'vitest';
import { catalogEntry, rankTools, wordsOf } from './rank-tools';

const spec = (name: string, description: string, properties: readonly string[] = []) => ({ name, description, inputSchema: { type: 'object', properties: Object.fromEntries(properties.map((property) => [property, { type: 'string' }])) } });

const CATALOG = [
  spec('refund_order', 'Refunds a paid order to the customer', ['orderId', 'amount']),
  spec('cancel_order', 'Cancels an order that has not shipped', ['orderId']),
  spec('get_weather', 'Current weather for a city', ['city']),
  spec('listInvoices', 'Lists the invoices of a customer', ['customerId']),
  spec('send_email', 'Sends an email', ['to', 'subject', 'body']),
].map(catalogEntry);

describe('rankTools', () => {
  it('splits names at underscores and camelCase humps, lower case, a plural s dropped', () => {
    expect(wordsOf('listInvoices refund_order Orders')).toEqual(['list', 'invoice', 'refund', 'order', 'order']);
  });

  it('ranks by name, description and argument names, best first', () => {
    expect(rankTools(CATALOG, 'refund an order', 5).map((entry) => entry.name)).toEqual(['refund_order', 'cancel_order']);
    expect(rankTools(CATALOG, 'invoices', 5).map((entry) => entry.name)).toEqual(['listInvoices']);
    // An argument name alone finds its tool.
    expect(rankTools(CATALOG, 'subject', 5).map((entry) => entry.name)).toEqual(['send_email']);
    // A tool's exact name comes first.
    expect(rankTools(CATALOG, 'cancel_order', 5)[0]?.name).toBe('cancel_order');
  });

  it('is deterministic, takes at most limit, and finds nothing for an empty or unknown query', () => {
    expect(rankTools(CATALOG, 'order customer', 5)).toEqual(rankTools([...CATALOG].reverse(), 'order customer', 5));
    expect(rankTools(CATALOG, 'order customer', 1)).toHaveLength(1);
    expect(rankTools(CATALOG, '  ', 5)).toEqual([]);
    expect(rankTools(CATALOG, 'zebra', 5)).toEqual([]);
  });
});
