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

/** Runs guards in order; the first rejection wins. A throwing guard rejects with `guard-error`. */
export function runGuards(guards: readonly ToolGuard[], toolName: string, args: unknown): GuardRejection | undefined {
  for (const guard of guards) {
    let rejection: GuardRejection | undefined;
    try {
      rejection = guard(toolName, args);
    } catch (error) {
      return { code: 'guard-error', message: `a guard failed: ${reduceError(error).message}` };
    }
    if (rejection) return rejection;
  }
  return undefined;
}
