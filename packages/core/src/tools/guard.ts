import { reduceError } from '@keel/reliability/internal';

/** Why a guard refused a tool call. Sent to the model as an error result; never retried. */
export interface GuardRejection {
  /** Machine-readable code, e.g. `fabricated-id`. */
  readonly code: string;
  /** What is wrong, for the model. */
  readonly message: string;
}

/**
 * Checks a tool call's raw arguments before validation, on the first call and on every re-ask
 * input. Returns a rejection, or `undefined` to let the call through.
 */
export type ToolGuard = (toolName: string, args: unknown) => GuardRejection | undefined;

/**
 * Runs guards in order; the first rejection wins. A throwing guard rejects with `guard-error`. A
 * rejection is Keel's own copy, read once: a code or message that is not a string reads as
 * `guard-rejected` or a generic message, and one that cannot be read at all is a `guard-error`.
 */
export function runGuards(guards: readonly ToolGuard[], toolName: string, args: unknown): GuardRejection | undefined {
  for (const guard of guards) {
    try {
      const rejection: unknown = guard(toolName, args);
      if (!rejection) continue;
      const { code, message } = (typeof rejection === 'object' ? rejection : {}) as { code?: unknown; message?: unknown };
      return {
        code: typeof code === 'string' && code !== '' ? code : 'guard-rejected',
        message: typeof message === 'string' ? message : `a guard rejected the call to ${toolName}`,
      };
    } catch (error) {
      return { code: 'guard-error', message: `a guard failed: ${reduceError(error).message}` };
    }
  }
  return undefined;
}
