/** What separates the suspension from the call in an approval id. */
const SEPARATOR = ':';

/**
 * The id of the approval a UI stream asks for a suspended call: the suspension's id, then the
 * call's (`<suspensionId>:<toolCallId>`). A suspension id is random, so the id names one call of
 * one suspended run wherever the client sends it back.
 */
export function approvalIdOf(suspensionId: string, toolCallId: string): string {
  return `${suspensionId}${SEPARATOR}${toolCallId}`;
}

/** The suspension and the call an approval id names, or `undefined` for an id the stream did not make. */
export function approvalOf(approvalId: string): { readonly suspensionId: string; readonly toolCallId: string } | undefined {
  const at = approvalId.indexOf(SEPARATOR);
  if (at <= 0 || at === approvalId.length - 1) return undefined;
  return { suspensionId: approvalId.slice(0, at), toolCallId: approvalId.slice(at + 1) };
}
