/** Plain JSON as a journal entry or a suspended state of an earlier format holds it. */
export type StoredJson = Readonly<Record<string, unknown>>;

/** Whether `value` is a JSON object (not `null`, not an array). */
export const isStoredObject = (value: unknown): value is StoredJson => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool call's record (or intent) of format 1, with the names this format gives it: `id` is
 * `toolCallId`, `name` is `toolName`. A call that has `toolCallId` already (written by this
 * format, in a journal an earlier format began) and what is no call are given back as they are.
 */
export function upgradeToolCall(call: unknown): unknown {
  if (!isStoredObject(call) || 'toolCallId' in call || !('id' in call)) return call;
  const { id, name, ...rest } = call;
  return { toolCallId: id, ...('name' in call ? { toolName: name } : {}), ...rest };
}

/** Each call of a list of format 1 upgraded (see {@link upgradeToolCall}); what is no list as it is. */
export const upgradeToolCalls = (calls: unknown): unknown => (Array.isArray(calls) ? calls.map(upgradeToolCall) : calls);
