import { isDeepStrictEqual } from 'node:util';
import { Agent, type Message, type ModelRequest, type ModelResponse, type OutputOptions } from '@keel/core';
import { type ModelProviderV1 } from '@keel/provider';
import { Ajv, type ValidateFunction } from 'ajv';
import { encode } from 'gpt-tokenizer';
import type { CorpusItem } from './corpus';
import { type SchemaName, schemas } from './schemas';
import { SimulatedModel } from './simulated-model';

/** The recovery strategies compared on the corpus. */
export type StrategyName = 'keel' | 'blind' | 'raw-ajv' | 'keel-no-repair';

export const strategyLabels: Readonly<Record<StrategyName, string>> = {
  keel: 'Keel default (local repair + prose feedback)',
  blind: 'blind retry (`feedback: false`)',
  'raw-ajv': 'raw ajv errors as feedback (by hand, as peers do)',
  'keel-no-repair': 'Keel, local repair off (`repair: false`)',
};

/** The outcome of one strategy on one item. */
export interface ItemOutcome {
  /** A value was returned and it equals the item's source object. */
  readonly recovered: boolean;
  readonly calls: number;
  /** Prompt tokens over every request (system + every message's text), gpt-tokenizer o200k. */
  readonly promptTokens: number;
}

const tokenCache = new Map<string, number>();
/** Tokens of a text (memoised: system prompts and tasks repeat). */
export function tokens(text: string): number {
  let count = tokenCache.get(text);
  if (count === undefined) {
    count = encode(text).length;
    tokenCache.set(text, count);
  }
  return count;
}

function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('');
}

/** Prompt tokens of one request: the system prompt plus every message's text. */
export function requestTokens(request: Pick<ModelRequest, 'system' | 'messages'>): number {
  let count = request.system === undefined ? 0 : tokens(request.system);
  for (const message of request.messages) count += tokens(messageText(message));
  return count;
}

const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const respond = (text: string): ModelResponse => ({ content: [{ type: 'text', text }], text, finishReason: 'stop', usage });

/** A Keel provider around the simulated model that counts each request's prompt tokens. */
function simulatedProvider(model: SimulatedModel, counter: { tokens: number }): ModelProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'simulated',
    generate: async (request) => {
      counter.tokens += requestTokens(request);
      return respond(model.answer(request.messages));
    },
  };
}

async function runKeel(item: CorpusItem, options: OutputOptions): Promise<ItemOutcome> {
  const model = new SimulatedModel(item);
  const counter = { tokens: 0 };
  const { schema, system } = schemas[item.schema];
  const agent = Agent.create({ provider: simulatedProvider(model, counter), model: 'simulated' }).system(system).outputSchema(schema, options).build();
  let recovered = false;
  try {
    recovered = isDeepStrictEqual(await agent.runTyped(item.prompt), item.source);
  } catch {
    recovered = false;
  }
  return { recovered, calls: model.calls, promptTokens: counter.tokens };
}

// Formats ajv-formats would add, written out here so the peer baseline depends on ajv alone.
const uuidPattern = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const emailPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}[t\s]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:z|[+-]\d{2}(?::?\d{2})?)$/i;

let peerAjv: Ajv | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();
/** The peer's validator: plain ajv (`allErrors`) with the three formats the schemas use. */
export function peerValidator(name: SchemaName): ValidateFunction {
  if (!peerAjv) {
    peerAjv = new Ajv({ allErrors: true });
    peerAjv.addFormat('uuid', uuidPattern);
    peerAjv.addFormat('email', emailPattern);
    peerAjv.addFormat('date-time', { validate: (text: string) => dateTimePattern.test(text) && !Number.isNaN(Date.parse(text)) });
  }
  let validate = compiled.get(name);
  if (!validate) {
    validate = peerAjv.compile(schemas[name].schema);
    compiled.set(name, validate);
  }
  return validate;
}

/**
 * The peer pattern by hand: `JSON.parse` (no local repair), ajv, and on failure up to 2 retries
 * whose feedback is the parser's message or ajv's `errors` JSON-stringified. Like Instructor's
 * re-ask, each retry appends the failed output and its feedback to the conversation.
 */
async function runRawAjv(item: CorpusItem): Promise<ItemOutcome> {
  const model = new SimulatedModel(item);
  const { system } = schemas[item.schema];
  const validate = peerValidator(item.schema);
  const messages: Message[] = [{ role: 'user', content: item.prompt }];
  let promptTokens = 0;
  for (let attempt = 1; attempt <= 3; attempt++) {
    promptTokens += requestTokens({ system, messages });
    const text = model.answer(messages);
    let feedback: string;
    try {
      const value: unknown = JSON.parse(text);
      if (validate(value)) return { recovered: isDeepStrictEqual(value, item.source), calls: model.calls, promptTokens };
      feedback = `Validation errors:\n${JSON.stringify(validate.errors)}\nFix the errors and reply with the corrected JSON only.`;
    } catch (error) {
      feedback = `JSON parse error: ${error instanceof Error ? error.message : String(error)}\nReply with valid JSON only.`;
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text }] }, { role: 'user', content: feedback });
  }
  return { recovered: false, calls: model.calls, promptTokens };
}

/** Runs one strategy on one item. */
export function runStrategy(strategy: StrategyName, item: CorpusItem): Promise<ItemOutcome> {
  switch (strategy) {
    case 'keel':
      return runKeel(item, {});
    case 'blind':
      return runKeel(item, { feedback: false });
    case 'keel-no-repair':
      return runKeel(item, { repair: false });
    case 'raw-ajv':
      return runRawAjv(item);
  }
}
