import { CassetteError } from '../errors/cassette-error';
import { CASSETTE_VERSION, type CassetteData, type CassetteInteraction } from './cassette-format';

/**
 * Reads a cassette file's text, checking every interaction's shape, so a hand edit that went
 * wrong is a {@link CassetteError} naming the place, never a replay that answers garbage.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const FINISH_REASONS = new Set(['stop', 'tool-calls', 'length', 'content-filter', 'refusal', 'error', 'other']);
const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'];

function contentProblem(content: unknown): string | undefined {
  if (!Array.isArray(content)) return 'content is not an array';
  for (const [index, part] of content.entries()) {
    if (!isObject(part)) return `content[${index}] is not an object`;
    if (part['type'] === 'text' && typeof part['text'] === 'string') continue;
    if (part['type'] === 'tool-call' && typeof part['id'] === 'string' && typeof part['name'] === 'string') continue;
    return `content[${index}] is neither a text part nor a tool call`;
  }
  return undefined;
}

function responseProblem(response: unknown): string | undefined {
  if (!isObject(response)) return 'the response is not an object';
  const content = contentProblem(response['content']);
  if (content) return content;
  if (typeof response['text'] !== 'string') return 'text is not a string';
  if (!FINISH_REASONS.has(response['finishReason'] as string)) return `finishReason ${JSON.stringify(response['finishReason'])} is not one Keel knows`;
  const usage = response['usage'];
  if (!isObject(usage) || USAGE_FIELDS.some((field) => typeof usage[field] !== 'number')) return 'usage lacks its four token counts';
  return undefined;
}

function partProblem(part: unknown): string | undefined {
  if (!isObject(part)) return 'is not an object';
  switch (part['type']) {
    case 'text-delta':
      return typeof part['text'] === 'string' ? undefined : 'has no text';
    case 'tool-call-start':
      return typeof part['id'] === 'string' && typeof part['name'] === 'string' ? undefined : 'has no id or name';
    case 'tool-call-delta':
      return typeof part['id'] === 'string' && typeof part['argumentsDelta'] === 'string' ? undefined : 'has no id or argumentsDelta';
    case 'tool-call':
      return contentProblem([part['call']]);
    case 'finish':
      return responseProblem(part['response']);
    default:
      return `has an unknown type ${JSON.stringify(part['type'])}`;
  }
}

function errorProblem(error: unknown): string | undefined {
  if (!isObject(error)) return 'error is not an object';
  if (typeof error['name'] !== 'string' || typeof error['message'] !== 'string') return 'error has no name or message';
  for (const field of ['status', 'retryAfterMs']) if (error[field] !== undefined && typeof error[field] !== 'number') return `error.${field} is not a number`;
  return undefined;
}

function interactionProblem(interaction: unknown): string | undefined {
  if (!isObject(interaction)) return 'is not an object';
  if (!isObject(interaction['request'])) return 'has no request object';
  if (interaction['call'] === 'generate') {
    if ('error' in interaction) return errorProblem(interaction['error']);
    return responseProblem(interaction['response']);
  }
  if (interaction['call'] !== 'stream') return `has an unknown call ${JSON.stringify(interaction['call'])} (generate or stream)`;
  const parts = interaction['parts'];
  if (!Array.isArray(parts)) return 'has no parts array';
  for (const [index, part] of parts.entries()) {
    const problem = partProblem(part);
    if (problem) return `parts[${index}] ${problem}`;
  }
  if ('error' in interaction) return errorProblem(interaction['error']);
  const last: unknown = parts.at(-1);
  return isObject(last) && last['type'] === 'finish' ? undefined : 'is a stream that neither finishes nor records an error';
}

/** Parses and checks a cassette file's text. */
export function parseCassette(path: string, text: string): CassetteData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CassetteError({ path, problem: 'invalid-json', detail: `not valid JSON (${error instanceof Error ? error.message : String(error)})`, cause: error });
  }
  if (!isObject(data)) throw new CassetteError({ path, problem: 'invalid-format', detail: 'not a cassette: the file holds no JSON object' });
  if (data['keelCassette'] !== CASSETTE_VERSION) {
    if (typeof data['keelCassette'] === 'number') throw new CassetteError({ path, problem: 'version', detail: `format version ${data['keelCassette']}; this version reads ${CASSETTE_VERSION}` });
    throw new CassetteError({ path, problem: 'invalid-format', detail: 'not a cassette: no keelCassette version field' });
  }
  const interactions = data['interactions'];
  if (!Array.isArray(interactions)) throw new CassetteError({ path, problem: 'invalid-format', detail: 'interactions is not an array' });
  for (const [index, interaction] of interactions.entries()) {
    const problem = interactionProblem(interaction);
    if (problem) throw new CassetteError({ path, problem: 'invalid-format', detail: `interactions[${index}] ${problem}` });
  }
  return { keelCassette: CASSETTE_VERSION, interactions: interactions as CassetteInteraction[] };
}
