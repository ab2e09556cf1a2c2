import { isDeepStrictEqual } from 'node:util';
import { Agent, type Message, type ModelResponse, type OutputOptions } from '@keel/core';
import { type ModelProviderV1 } from '@keel/provider';
import { requestTokens } from '../recovery/strategies';
import type { IndependentItem } from './independent-corpus';
import { MeaningModel } from './meaning-model';
import { Order, orderSystem, rawOrderValidator } from './order-schema';

/** Strategies compared on the independent corpus. */
export type IndependentStrategy = 'keel' | 'keel-no-local' | 'raw-latest' | 'raw-accumulating' | 'blind';

export const independentLabels: Readonly<Record<IndependentStrategy, string>> = {
  keel: 'Keel default',
  'keel-no-local': 'Keel, no local fixes (`repair: false, coerce: false`)',
  'raw-latest': 'raw validator errors, latest failure only (fair baseline)',
  'raw-accumulating': 'raw validator errors, every failure kept',
  blind: 'blind retry (`feedback: false`)',
};

/** What one strategy did with one item. */
export interface IndependentOutcome {
  /** A value came back and it is the one the model meant. */
  readonly recovered: boolean;
  /** A value came back with no error, and it is not the one the model meant. */
  readonly silentlyWrong: boolean;
  readonly calls: number;
  readonly promptTokens: number;
}

/** Most model calls per output, for every strategy (Keel's default: 1 + 2 retries). */
const MAX_CALLS = 3;

const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const respond = (text: string): ModelResponse => ({ content: [{ type: 'text', text }], text, finishReason: 'stop', usage });

function feedbackOf(messages: readonly Message[]): string | undefined {
  const last = messages[messages.length - 1];
  return messages.length > 1 && last?.role === 'user' && typeof last.content === 'string' ? last.content : undefined;
}

async function runKeel(item: IndependentItem, options: OutputOptions): Promise<IndependentOutcome> {
  const model = new MeaningModel(item);
  let promptTokens = 0;
  const provider: ModelProviderV1 = {
    specificationVersion: 'v1',
    name: 'meaning',
    generate: async (request) => {
      promptTokens += requestTokens(request);
      return respond(model.answer(feedbackOf(request.messages)));
    },
  };
  const agent = Agent.create({ provider, model: 'meaning' }).system(orderSystem).outputSchema(Order, options).build();
  try {
    const value = await agent.runTyped(item.prompt);
    const right = isDeepStrictEqual(value, item.source);
    return { recovered: right, silentlyWrong: !right, calls: model.calls, promptTokens };
  } catch {
    return { recovered: false, silentlyWrong: false, calls: model.calls, promptTokens };
  }
}

/**
 * The usual hand-written loop: `JSON.parse`, ajv, and on failure the parser's message or ajv's
 * `errors` as JSON. `latest` sends the task, the failed output and its errors (the latest failure
 * only, as Keel does); otherwise every failed output and its errors are kept.
 */
async function runRaw(item: IndependentItem, latest: boolean): Promise<IndependentOutcome> {
  const model = new MeaningModel(item);
  const validate = rawOrderValidator();
  const task: Message = { role: 'user', content: item.prompt };
  let history: Message[] = [task];
  let promptTokens = 0;
  let feedback: string | undefined;
  for (let call = 1; call <= MAX_CALLS; call++) {
    promptTokens += requestTokens({ system: orderSystem, messages: history });
    const text = model.answer(feedback);
    try {
      const value: unknown = JSON.parse(text);
      if (validate(value)) {
        const right = isDeepStrictEqual(value, item.source);
        return { recovered: right, silentlyWrong: !right, calls: model.calls, promptTokens };
      }
      feedback = `Validation errors:\n${JSON.stringify(validate.errors)}\nFix the errors and reply with the corrected JSON only.`;
    } catch (error) {
      feedback = `JSON parse error: ${error instanceof Error ? error.message : String(error)}\nReply with valid JSON only.`;
    }
    const exchange: Message[] = [{ role: 'assistant', content: [{ type: 'text', text }] }, { role: 'user', content: feedback }];
    history = latest ? [task, ...exchange] : [...history, ...exchange];
  }
  return { recovered: false, silentlyWrong: false, calls: model.calls, promptTokens };
}

/** Runs one strategy on one item. */
export function runIndependent(strategy: IndependentStrategy, item: IndependentItem): Promise<IndependentOutcome> {
  switch (strategy) {
    case 'keel':
      return runKeel(item, {});
    case 'keel-no-local':
      return runKeel(item, { repair: false, coerce: false });
    case 'blind':
      return runKeel(item, { feedback: false });
    case 'raw-latest':
      return runRaw(item, true);
    case 'raw-accumulating':
      return runRaw(item, false);
  }
}
