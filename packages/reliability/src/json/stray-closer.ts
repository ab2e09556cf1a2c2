/**
 * Why a value followed by a closer that closes nothing has a second reading, or `undefined` when
 * it has one. The stray closer is either noise after the value, or the value's own end while a
 * closer inside it came too early: `{"a": {"b": 1}, "c": 2}}` is `{"a": {"b": 1}, "c": 2}` or
 * `{"a": {"b": 1, "c": 2}}`. The two read alike unless a closer of the stray's kind inside the
 * value, with only containers of that kind around it, is followed by more of the value (a `,`):
 * `{"a": 1}}` and `{"a": {"b": 1}}}` have one reading. `json` is the value as strict JSON, `after`
 * the text that follows it. Linear in the length of `json`.
 */
export function strayCloserReading(json: string, after: string): string | undefined {
  const stray = /^\s*([}\]])/.exec(after)?.[1];
  const opener = stray === '}' ? '{' : '[';
  if (stray === undefined || json.trimStart()[0] !== opener) return undefined;
  const open: string[] = [];
  // Containers open that are not of the stray's kind: the closer inside cannot move past them.
  let others = 0;
  for (let index = 0; index < json.length; index++) {
    const char = json[index] as string;
    if (char === '"') {
      for (index++; index < json.length && json[index] !== '"'; index++) if (json[index] === '\\') index++;
    } else if (char === '{' || char === '[') {
      open.push(char);
      if (char !== opener) others++;
    } else if (char === '}' || char === ']') {
      const closed = open.pop();
      if (closed !== opener) others--;
      else if (open.length > 0 && others === 0 && /^\s*,/.test(json.slice(index + 1, index + 64))) {
        return `an extra '${stray}' follows it, or an earlier '${stray}' came too early (before ${JSON.stringify(json.slice(index + 1, index + 13).trim())})`;
      }
    }
  }
  return undefined;
}
