/** A path into a JSON value: property names and array indexes. */
type Path = readonly (string | number)[];

const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const stringToken = /"(?:[^"\\]|\\.)*"/y;

/** The key a path is stored under. */
export function pathKey(path: Path): string {
  return JSON.stringify(path);
}

/**
 * Every number literal of a strict JSON text as written (`1.0`, `1e3`), by path (see
 * {@link pathKey}): one pass, no recursion. The text must be strict JSON.
 */
export function numberLiterals(json: string): ReadonlyMap<string, string> {
  const literals = new Map<string, string>();
  const path: (string | number)[] = [];
  /** Per open container: true for an object. */
  const objects: boolean[] = [];
  let expectKey = false;
  for (let index = 0; index < json.length; ) {
    const char = json[index] as string;
    if (char === '{' || char === '[') {
      objects.push(char === '{');
      path.push(char === '{' ? '' : 0);
      expectKey = char === '{';
      index++;
    } else if (char === '}' || char === ']') {
      objects.pop();
      path.pop();
      expectKey = false;
      index++;
    } else if (char === ',') {
      const depth = objects.length - 1;
      if (objects[depth]) expectKey = true;
      else path[depth] = (path[depth] as number) + 1;
      index++;
    } else if (char === '"') {
      stringToken.lastIndex = index;
      const token = stringToken.exec(json)?.[0] ?? '""';
      if (expectKey) {
        path[objects.length - 1] = JSON.parse(token) as string;
        expectKey = false;
      }
      index += token.length;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      numberToken.lastIndex = index;
      const token = numberToken.exec(json)?.[0] ?? char;
      literals.set(pathKey(path), token);
      index += token.length;
    } else index++;
  }
  return literals;
}
