import type { ModelProvider, ModelTarget } from '@keel/core';
import { scriptedModel } from '@keel/core/test';

/** The answer to a question about the refund policy: long enough to watch it stream. */
export const POLICY_ANSWER =
  'Damaged or missing orders are refunded in full. Refunds up to $50 are made at once; a larger refund waits for a person to approve it, usually within a day. The money is back on your card in three to five working days.';

/**
 * The refund desk's scripted model, for the chat app offline and its browser test: about the
 * policy, it answers with text; about a damaged order, it says it looks the order up (with the
 * lookup call), asks for the refund (which waits for approval), then answers from the refund's
 * result. Its stream waits `delayMs` before each piece of text, as a real model's arrives.
 */
export function deskTarget({ delayMs = 40 }: { delayMs?: number } = {}): ModelTarget & { readonly calls: () => number } {
  const script = scriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'user') {
      const question = last.content;
      if (/policy/i.test(question)) return POLICY_ANSWER;
      return { text: 'Let me look up order A-1001.', toolCalls: [{ id: 'lookup-1', name: 'lookup_order', arguments: { orderId: 'A-1001' } }] };
    }
    const result = last?.role === 'tool' ? last.content[0] : undefined;
    if (result?.toolName === 'lookup_order') return { toolCalls: [{ id: 'refund-1', name: 'refund', arguments: { orderId: 'A-1001', amount: 120, reason: 'delivered damaged' } }] };
    return result?.isError ? `I could not refund order A-1001: ${result.output}` : 'Your order A-1001 has been refunded in full ($120).';
  });
  const provider: ModelProvider = {
    specificationVersion: 'v1',
    name: 'scripted-desk',
    generate: (request, options) => script.generate(request, options),
    async *stream(request, options) {
      for await (const part of script.stream?.(request, options) ?? []) {
        if (part.type === 'text-delta') await new Promise((resolve) => setTimeout(resolve, delayMs));
        yield part;
      }
    },
  };
  return { provider, model: 'scripted-desk', calls: () => script.calls };
}
