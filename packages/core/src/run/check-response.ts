import { BadResponseError } from '@keel/reliability/internal';
import type { ModelResponse } from '../model/model-provider-v1';

function partProblem(part: unknown, index: number): string | undefined {
  if (typeof part !== 'object' || part === null) return `content[${index}] is ${part === null ? 'null' : typeof part}, not a part`;
  const { type } = part as { type?: unknown };
  if (type === 'text') return typeof (part as { text?: unknown }).text === 'string' ? undefined : `content[${index}] is a text part without text`;
  if (type === 'tool-call') {
    const { id, name } = part as { id?: unknown; name?: unknown };
    return typeof id === 'string' && typeof name === 'string' ? undefined : `content[${index}] is a tool call without a string id and name`;
  }
  return `content[${index}] has unknown type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type}`;
}

/**
 * Checks a provider's answer against the model spec before anything reads it: an object, with
 * `content` a list of text and tool-call parts and `text` a string.
 * @throws {BadResponseError} (kind `bad-response`) naming what is wrong.
 */
export function checkResponse(response: unknown): ModelResponse {
  if (typeof response !== 'object' || response === null) {
    throw new BadResponseError({ message: `the provider returned ${response === null ? 'null' : typeof response === 'undefined' ? 'undefined' : `a ${typeof response}`} instead of a response` });
  }
  const { content, text } = response as { content?: unknown; text?: unknown };
  if (!Array.isArray(content)) throw new BadResponseError({ message: `content is ${content === undefined ? 'missing' : content === null ? 'null' : `a ${typeof content}`}, not a list` });
  for (let index = 0; index < content.length; index++) {
    const problem = partProblem(content[index], index);
    if (problem) throw new BadResponseError({ message: problem });
  }
  if (typeof text !== 'string') throw new BadResponseError({ message: `text is ${text === undefined ? 'missing' : text === null ? 'null' : `a ${typeof text}`}, not a string` });
  return response as ModelResponse;
}
