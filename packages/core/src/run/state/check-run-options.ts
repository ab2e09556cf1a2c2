import type { RunOptions } from '../../contracts/run-result';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';

const fail = (setting: string, message: string): never => {
  throw new AgentConfigurationError({ setting, message });
};

/** True for an `AbortSignal` (checked by shape, so a signal of another realm passes). */
function isSignal(value: unknown): value is AbortSignal {
  return typeof value === 'object' && value !== null && typeof (value as AbortSignal).aborted === 'boolean' && typeof (value as AbortSignal).addEventListener === 'function';
}

/**
 * Checks the options of `run()` and `stream()` before the run reads them: `null` is no options; a
 * `signal` must be an `AbortSignal`, `runId`, `conversationId` and `tenant` strings, `timeoutMs` a whole
 * number >= 1.
 * @throws {AgentConfigurationError} naming the option (`run.signal`, `run.timeoutMs`, ...).
 */
export function checkRunOptions<T extends RunOptions>(options: T | null | undefined): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== 'object') return fail('run.options', `must be an object, got a ${typeof options}`);
  const { signal, timeoutMs, runId, conversationId, tenant } = options;
  if (tenant !== undefined && typeof tenant !== 'string') fail('run.tenant', `must be a string, got a ${typeof tenant}`);
  if (signal !== undefined && !isSignal(signal)) fail('run.signal', 'must be an AbortSignal');
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs >= 1)) fail('run.timeoutMs', `must be a whole number >= 1, got ${String(timeoutMs)}`);
  if (runId !== undefined && typeof runId !== 'string') fail('run.runId', `must be a string, got a ${typeof runId}`);
  if (conversationId !== undefined && typeof conversationId !== 'string') fail('run.conversationId', `must be a string, got a ${typeof conversationId}`);
  return options;
}
