import type { ModelTarget } from '@keel/core';
import { refundAgent } from './agents/refund-agent';

/** Streams the refund agent and prints each typed part as it arrives. */
export async function streamRefund(target?: ModelTarget, log: (line: string) => void = console.log): Promise<void> {
  const agent = refundAgent(target).build();
  for await (const part of agent.stream('Order 1182 arrived broken; the customer paid $50. Decide.')) {
    switch (part.type) {
      case 'text-delta':
        log(`  text (attempt ${part.attempt}): ${part.text}`);
        break;
      case 'validation-failed':
        log(`  validation failed on attempt ${part.attempt}: ${part.message}`);
        break;
      case 'retry':
        log(`  retrying after attempt ${part.attempt} (${part.errorKind})`);
        break;
      case 'result':
        log(`  result: ${part.result.status === "complete" ? JSON.stringify(part.result.value) : part.result.status} after ${part.result.usage.modelCalls} model calls`);
        break;
      default:
        log(`  ${part.type}`);
    }
  }
}
