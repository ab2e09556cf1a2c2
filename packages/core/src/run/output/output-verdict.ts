import type { GateVerdict } from '@keel/reliability';
import { BadResponseError, checkOutput, type OutputCheck } from '@keel/reliability/internal';
import type { FinishReason, ModelResponse, TextPart, ToolCallPart } from '@keel/provider';
import type { TokenUsage } from '@keel/reliability';
import type { RunConfig } from '../state/run-config';

/*
 * A model turn, checked twice: against the model spec (`checkResponse`, every provider answer,
 * before anything reads it), then as the run's answer (`outputVerdict`, the judge of a step's call).
 */

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
function copyUsage(usage: unknown): TokenUsage {
  if (typeof usage !== 'object' || usage === null) return usage as TokenUsage;
  const copy: Record<string, unknown> = {};
  for (const field of USAGE_FIELDS) {
    try {
      copy[field] = (usage as Record<string, unknown>)[field];
    } catch {
      // An unreadable count is a missing one: recorded as 0 and reported as `usage.invalid`.
    }
  }
  return copy as unknown as TokenUsage;
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

/**
 * Judges a model turn. Tool-call turns are never validated. With an output schema, a final turn
 * is extracted and validated; a truncated answer (`length`) and a refusal get their own kinds
 * rather than being fed back as schema errors (a truncated answer is continued, see
 * `OutputOptions.continuation`; an invalid one keeps its parsed value for a patch re-ask). Everything the step needs later travels in the
 * verdict itself.
 */
export function outputVerdict(config: RunConfig, response: ModelResponse): GateVerdict<unknown> | Promise<GateVerdict<unknown>> {
  const output = config.output;
  if (hasToolCall(response)) {
    const duplicate = duplicateCallId(response);
    // Two calls with one id would both run, and the next request would answer one id twice.
    if (duplicate !== undefined) return { status: 'error', errorKind: 'bad-response', message: `two tool calls in one turn have the id ${JSON.stringify(duplicate)}`, rawOutput: response.text };
    // What a rule rejecting the turn echoes: its text and its calls, as data.
    return { status: 'valid', value: undefined, rawOutput: turnText(response), purpose: 'tool-call-turn' };
  }
  if (!output) return { status: 'valid', value: response.text, rawOutput: response.text };
  if (response.finishReason === 'length') {
    return { status: 'error', errorKind: 'truncated', message: 'The answer was cut off at the token limit (finish reason length)', rawOutput: response.text };
  }
  if (response.finishReason === 'refusal' || response.finishReason === 'content-filter') {
    return { status: 'error', errorKind: 'refusal', message: `The model declined to answer (finish reason ${response.finishReason})`, rawOutput: response.text };
  }
  const check = checkOutput(response.text, output.validator, {
    repair: output.options.repair ?? true,
    coerce: output.options.coerce ?? true,
    strict: output.options.strict ?? true,
  });
  return check instanceof Promise ? check.then((settled) => verdictOf(settled, response)) : verdictOf(check, response);
}

function verdictOf(check: OutputCheck<unknown>, response: ModelResponse): GateVerdict<unknown> {
  // The parsed value is kept for a rule that accepts invalid output with `accept`, and for a patch re-ask to patch.
  if (!check.ok) return check.value === undefined ? { status: 'invalid', failure: check.failure, partialValue: check.value } : { status: 'invalid', failure: check.failure, partialValue: check.value, rejectedValue: check.value };
  return { status: 'valid', value: check.value, rawOutput: response.text, repairs: check.repairs, coercions: check.coercions, issues: check.issues };
}

/** A tool-call turn as text: what it said, then each call as JSON. */
function turnText(response: ModelResponse): string {
  let text = response.text;
  for (const part of response.content) {
    if (part.type !== 'tool-call') continue;
    const call = JSON.stringify({ call: part.name, arguments: part.arguments });
    text = text.length === 0 ? call : `${text}\n${call}`;
  }
  return text;
}

/** The first tool-call id used twice in a turn, if any. */
function duplicateCallId(response: ModelResponse): string | undefined {
  const seen = new Set<string>();
  for (const part of response.content) {
    if (part.type !== 'tool-call') continue;
    if (seen.has(part.id)) return part.id;
    seen.add(part.id);
  }
  return undefined;
}

function hasToolCall(response: ModelResponse): boolean {
  for (const part of response.content) if (part.type === 'tool-call') return true;
  return false;
}
