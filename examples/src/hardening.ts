import { Type } from '@sinclair/typebox';
import { AbortedError, Agent, ReliabilityFailFastError, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { tokenBudget } from '@keel/reliability';

/**
 * What a hostile model or a stuck tool cannot do (offline, on scripted models): overspend a budget
 * with many invalid tool calls at once, hang a run with a tool that never returns, or run past the
 * caller's deadline.
 */

const lookup = tool({ name: 'lookup', description: 'Looks an order up by number', input: Type.Object({ order: Type.Number() }), execute: ({ order }) => ({ order, status: 'shipped' }) });

/** Ten invalid tool calls in one turn, each re-asked at once: a 1,000-token budget still holds. */
export async function budgetUnderFire(log: (line: string) => void = console.log): Promise<{ calls: number; tokens: number }> {
  const usage = { inputTokens: 300, outputTokens: 0 };
  const model = scriptedModel((request, call) => {
    if (request.toolChoice?.type === 'tool') return { toolCalls: [{ name: 'lookup', arguments: { order: `still #${call}` } }], usage };
    return { toolCalls: Array.from({ length: 10 }, (_, index) => ({ id: `c${index}`, name: 'lookup', arguments: { order: `#${index}` } })), usage };
  });
  const agent = Agent.create({ provider: model, model: 'scripted-demo' }).tool(lookup).reliability({ preCheck: [tokenBudget(1000)] }).build();
  try {
    await agent.run('Where are my ten orders?');
  } catch (error) {
    if (!ReliabilityFailFastError.isInstance(error)) throw error;
    const tokens = error.attempts.reduce((sum, attempt) => sum + attempt.usage.inputTokens + attempt.usage.outputTokens, 0);
    log(`Stopped by ${error.kind} after ${model.calls} model calls and ${tokens} tokens (cap 1000, one call = 300)`);
    return { calls: model.calls, tokens };
  }
  throw new Error('the budget should have stopped the run');
}

/** A tool that never returns is stopped by `toolTimeoutMs`; the model reads the error and answers. */
export async function stuckTool(log: (line: string) => void = console.log): Promise<string> {
  const stuck = tool({ name: 'inventory', description: 'Counts stock', input: Type.Object({}), execute: () => new Promise<never>(() => undefined) });
  const model = scriptedModel([{ toolCalls: [{ name: 'inventory', arguments: {} }] }, 'The inventory service is not answering; please try again later.']);
  const result = await Agent.create({ provider: model, model: 'scripted-demo', toolTimeoutMs: 50 }).tool(stuck).build().run('How many in stock?');
  log(`Tool result: ${result.toolCalls[0]?.output}`);
  log(`Answer: ${result.text}`);
  return result.toolCalls[0]?.errorCode ?? 'none';
}

/** A run given `timeoutMs` ends with a timed-out AbortedError, whatever the model is doing. */
export async function deadline(log: (line: string) => void = console.log): Promise<boolean> {
  const slow = scriptedModel({ text: 'eventually', delayMs: 10_000 });
  try {
    await Agent.create({ provider: slow, model: 'scripted-demo' }).build().run('Take your time', { timeoutMs: 100 });
  } catch (error) {
    if (!AbortedError.isInstance(error)) throw error;
    log(`${error.name}: ${error.message} (timedOut: ${error.timedOut})`);
    return error.timedOut;
  }
  throw new Error('the run should have timed out');
}
