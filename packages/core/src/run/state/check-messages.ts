import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import type { Message } from '@keel/provider';

type Problem = string | undefined;

const isString = (value: unknown): value is string => typeof value === 'string';

function partProblem(role: 'assistant' | 'tool', part: unknown): Problem {
  if (typeof part !== 'object' || part === null) return `has a content part that is ${part === null ? 'null' : typeof part}`;
  const { type } = part as { type?: unknown };
  if (role === 'tool') {
    const { toolCallId, output } = part as { toolCallId?: unknown; output?: unknown };
    return type === 'tool-result' && isString(toolCallId) && isString(output) ? undefined : 'has a content part that is not a tool result with a string toolCallId and output';
  }
  if (type === 'text') return isString((part as { text?: unknown }).text) ? undefined : 'has a text part without text';
  if (type === 'tool-call') {
    const { id, name } = part as { id?: unknown; name?: unknown };
    return isString(id) && isString(name) ? undefined : 'has a tool call without a string id and name';
  }
  return 'has a content part that is neither text nor a tool call';
}

/** A user message's attachments: a list of images and files, each with a media type and exactly one of `data` and `url`. */
function attachmentsProblem(attachments: unknown): Problem {
  if (attachments === undefined) return undefined;
  if (!Array.isArray(attachments)) return 'is a user message whose attachments are not a list';
  for (const part of attachments as readonly unknown[]) {
    if (typeof part !== 'object' || part === null) return 'has an attachment that is not an object';
    const { type, mediaType, data, url } = part as { type?: unknown; mediaType?: unknown; data?: unknown; url?: unknown };
    if (type !== 'image' && type !== 'file') return 'has an attachment that is neither an image nor a file';
    if (!isString(mediaType) || mediaType === '') return `has an ${type} attachment without a media type`;
    if (isString(data) === isString(url) || (data !== undefined && !isString(data)) || (url !== undefined && !isString(url))) return `has an ${type} attachment without exactly one of data (base64) and url`;
  }
  return undefined;
}

function messageProblem(message: unknown): Problem {
  if (typeof message !== 'object' || message === null) return `is ${message === null ? 'null' : typeof message}, not a message`;
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (role === 'user' || role === 'system') {
    if (!isString(content)) return `is a ${role} message whose content is not a string`;
    return role === 'user' ? attachmentsProblem((message as { attachments?: unknown }).attachments) : undefined;
  }
  if (role !== 'assistant' && role !== 'tool') return `has role ${isString(role) ? JSON.stringify(role.slice(0, 40)) : typeof role}, not user, assistant, tool or system`;
  if (!Array.isArray(content)) return `is an ${role} message whose content is not a list`;
  for (const part of content as readonly unknown[]) {
    const problem = partProblem(role, part);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Checks that `messages` is a list of well-formed messages before a run reads it (the run's input,
 * or what a memory store loaded), so a malformed one is a clear error naming where it came from —
 * never a `TypeError` deep in the run or a provider.
 * @throws {AgentConfigurationError} with `setting` naming the source and the message's index.
 */
export function checkMessages(messages: unknown, setting: string): readonly Message[] {
  let problem: Problem;
  try {
    if (!Array.isArray(messages)) problem = `is ${messages === null ? 'null' : typeof messages}, not a list of messages`;
    else {
      const list = messages as readonly unknown[];
      for (let index = 0; index < list.length && !problem; index++) {
        const found = messageProblem(list[index]);
        if (found) problem = `message ${index} ${found}`;
      }
    }
  } catch {
    problem = 'could not be read (a getter or Proxy trap threw)';
  }
  if (problem) throw new AgentConfigurationError({ setting, message: problem });
  return messages as readonly Message[];
}
