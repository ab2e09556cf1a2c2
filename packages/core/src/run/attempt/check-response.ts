import { BadResponseError } from '@keel/reliability/internal';
import type { TextPart, ToolCallPart } from '../../model/message';
import type { FinishReason, ModelResponse, ModelUsage } from '../../model/model-provider-v1';

const FINISH_REASONS: ReadonlySet<string> = new Set<FinishReason>(['stop', 'tool-calls', 'length', 'content-filter', 'refusal', 'error', 'other']);
const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

const describe = (value: unknown) => (value === null ? 'null' : value === undefined ? 'undefined' : `a ${typeof value}`);

/** Reads one field of a provider's answer; a getter or Proxy trap that throws is a broken response, not a crash. */
export function read(source: object, field: string | number, where: string): unknown {
  try {
    return (source as Record<string | number, unknown>)[field];
  } catch {
    throw new BadResponseError({ message: `${where} could not be read (a getter or Proxy trap threw)` });
  }
}

function copyPart(part: unknown, index: number): TextPart | ToolCallPart {
  const where = `content[${index}]`;
  if (typeof part !== 'object' || part === null) throw new BadResponseError({ message: `${where} is ${part === null ? 'null' : typeof part}, not a part` });
  const type = read(part, 'type', `${where}.type`);
  if (type === 'text') {
    const text = read(part, 'text', `${where}.text`);
    if (typeof text !== 'string') throw new BadResponseError({ message: `${where} is a text part without text` });
    return { type: 'text', text };
  }
  if (type === 'tool-call') {
    const id = read(part, 'id', `${where}.id`);
    const name = read(part, 'name', `${where}.name`);
    if (typeof id !== 'string' || typeof name !== 'string') throw new BadResponseError({ message: `${where} is a tool call without a string id and name` });
    const args = read(part, 'arguments', `${where}.arguments`);
    // The raw text the model wrote, when the provider hands it over: what exact parsing reads.
    const argumentsText = read(part, 'argumentsText', `${where}.argumentsText`);
    return typeof argumentsText === 'string' ? { type: 'tool-call', id, name, arguments: args, argumentsText } : { type: 'tool-call', id, name, arguments: args };
  }
  throw new BadResponseError({ message: `${where} has unknown type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type}` });
}

/** The usage counts as given (bad ones are reported and zeroed later, by the ledger), each read once. */
function copyUsage(usage: unknown): ModelUsage {
  if (typeof usage !== 'object' || usage === null) return usage as ModelUsage;
  const copy: Record<string, unknown> = {};
  for (const field of USAGE_FIELDS) {
    try {
      copy[field] = (usage as Record<string, unknown>)[field];
    } catch {
      // An unreadable count is a missing one: recorded as 0 and reported as `usage.invalid`.
    }
  }
  return copy as unknown as ModelUsage;
}

/**
 * Checks a provider's answer against the model spec and returns Keel's own copy of it: an object
 * with `content` a list of text and tool-call parts and `text` a string. Every field is read once,
 * so a getter, a Proxy or a response changed after it was returned cannot make later reads
 * disagree or throw; an unknown `finishReason` reads as `other`.
 * @throws {BadResponseError} (kind `bad-response`) naming what is wrong.
 */
export function checkResponse(response: unknown): ModelResponse {
  if (typeof response !== 'object' || response === null) {
    throw new BadResponseError({ message: `the provider returned ${response === null ? 'null' : typeof response === 'undefined' ? 'undefined' : `a ${typeof response}`} instead of a response` });
  }
  const content = read(response, 'content', 'content');
  let isList: boolean;
  try {
    isList = Array.isArray(content);
  } catch {
    isList = false;
  }
  if (!isList) throw new BadResponseError({ message: `content is ${content === undefined ? 'missing' : describe(content)}, not a list` });
  const list = content as readonly unknown[];
  const length = read(list, 'length', 'content.length') as number;
  const parts: (TextPart | ToolCallPart)[] = [];
  for (let index = 0; index < length; index++) parts.push(copyPart(read(list, index, `content[${index}]`), index));
  const text = read(response, 'text', 'text');
  if (typeof text !== 'string') throw new BadResponseError({ message: `text is ${text === undefined ? 'missing' : describe(text)}, not a string` });
  const finishReason = read(response, 'finishReason', 'finishReason');
  const copy: { -readonly [K in keyof ModelResponse]: ModelResponse[K] } = {
    content: parts,
    text,
    finishReason: typeof finishReason === 'string' && FINISH_REASONS.has(finishReason) ? (finishReason as FinishReason) : 'other',
    usage: copyUsage(read(response, 'usage', 'usage')),
  };
  const modelId = read(response, 'modelId', 'modelId');
  if (typeof modelId === 'string') copy.modelId = modelId;
  const responseId = read(response, 'responseId', 'responseId');
  if (typeof responseId === 'string') copy.responseId = responseId;
  return copy;
}
