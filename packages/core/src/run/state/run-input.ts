import type { RunInput } from '../../contracts/run-result';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import type { Message } from '@keel/provider';
import { checkMessages } from './check-messages';

/**
 * The input of a run as messages: a string or `{ message }` is one user message; an array is
 * checked (see {@link checkMessages}) and taken as it is (never mutated).
 * @throws {AgentConfigurationError} (setting `run.input`) for anything else, or a malformed message.
 */
export function inputAsMessages(input: RunInput): readonly Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (Array.isArray(input)) return checkMessages(input, 'run.input');
  let message: unknown;
  try {
    message = typeof input === 'object' && input !== null ? (input as { message?: unknown }).message : undefined;
  } catch {
    // A getter that throws is no message: refused below like any other input.
  }
  if (typeof message === 'string') return [{ role: 'user', content: message }];
  throw new AgentConfigurationError({ setting: 'run.input', message: 'give a string, { message: string }, or an array of messages' });
}

/**
 * The kept messages of the input, never system or ephemeral ones: each message object is Keel's
 * own shallow copy, its content shared with the caller's (Keel never writes to either), so a run
 * costs no deep copy of its conversation.
 */
export function keptInputMessages(input: readonly Message[]): Message[] {
  const kept: Message[] = [];
  for (const message of input) if (!message.ephemeral && message.role !== 'system') kept.push({ ...message });
  return kept;
}

/** The agent's system prompt followed by the system messages of the input, if any. */
export function runSystem(system: string | undefined, input: readonly Message[]): string | undefined {
  const parts = system === undefined ? [] : [system];
  for (const message of input) if (message.role === 'system') parts.push(message.content);
  return parts.length === 0 ? undefined : parts.join('\n\n');
}
