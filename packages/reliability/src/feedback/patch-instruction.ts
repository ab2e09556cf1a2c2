import type { PatchRequest } from '../patch/patch-request';

/**
 * The closing instruction of a patch re-ask: reply with only the corrected values, as one JSON
 * object keyed by the printed paths (listed as quoted data); for a tool call's arguments, call
 * the tool again with them. Replaces the default "reply again with the corrected value".
 */
export function patchInstruction(request: Pick<PatchRequest, 'targets'>, toolName?: string): string {
  const keys = request.targets.map((target) => JSON.stringify(target.pathText));
  const what = 'one JSON object whose keys are the paths below, written exactly as listed, and whose values are the corrected values';
  return [
    toolName === undefined
      ? `Reply with only the corrected values, not the whole value: ${what}, e.g. {${keys[0] ?? '"path"'}: <corrected value>}.`
      : `Call ${JSON.stringify(toolName)} again with only the corrected values as its arguments, not the whole input: ${what}, e.g. {${keys[0] ?? '"path"'}: <corrected value>}.`,
    `Paths you may set (quoted data): ${keys.join(', ')}.`,
    'Where a path names an object or a list, give its whole corrected value. Everything else is kept as it was; a key not listed makes the reply unusable.',
  ].join('\n');
}
