/** One turn of a simulated model behind a local wire server. */
export type ModelTurn =
  /** Call a tool, aiming at these arguments (a strict tool's are constrained to its schema). */
  | { readonly type: 'tool-call'; readonly name: string; readonly intent: unknown }
  /** Answer, aiming at this value (constrained to the native output format when one is sent). */
  | { readonly type: 'answer'; readonly intent: unknown };

/** Splits text into pieces of `size` characters, as a stream delivers it. */
export function piecesOf(text: string, size = 9): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/** The tool named `name` among a request's tools, by `read(tool)`; a test that names no such tool fails. */
export function toolNamed<T>(tools: unknown, name: string, read: (tool: Record<string, unknown>) => T | undefined): T {
  const list = Array.isArray(tools) ? tools : [];
  for (const tool of list) {
    if (typeof tool !== 'object' || tool === null) continue;
    const found = read(tool as Record<string, unknown>);
    if (found !== undefined) return found;
  }
  throw new Error(`simulated model: the request defines no tool ${JSON.stringify(name)}`);
}
