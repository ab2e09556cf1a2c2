/**
 * Why a tool object given to an agent is malformed, or undefined when it is fine. A tool made by
 * `tool()` always passes; a hand-made or spread copy (`{ ...tool, needsApproval: true }`) whose
 * fields have the wrong form is refused rather than run with those fields ignored.
 */
export function toolShapeProblem(candidate: object): string | undefined {
  const tool = candidate as Record<string, unknown>;
  if (typeof tool.description !== 'string') return 'description must be a string';
  const specification = tool.specification as Record<string, unknown> | null | undefined;
  if (typeof specification !== 'object' || specification === null || typeof specification.inputSchema !== 'object' || specification.inputSchema === null) {
    return 'specification must be an object with an inputSchema object';
  }
  if (specification.name !== tool.name) return `specification.name (${JSON.stringify(specification.name)}) must be the tool's name (${JSON.stringify(tool.name)})`;
  if (tool.needsApproval !== undefined && typeof tool.needsApproval !== 'function') {
    return `needsApproval on a tool object must be a function (input, context) => boolean, got ${JSON.stringify(tool.needsApproval) ?? typeof tool.needsApproval}; define the tool with tool({ ..., needsApproval: true })`;
  }
  for (const flag of ['validate', 'coerce', 'strict'] as const) {
    if (tool[flag] !== undefined && typeof tool[flag] !== 'boolean') return `${flag} must be true or false, got ${JSON.stringify(tool[flag]) ?? typeof tool[flag]}`;
  }
  if (tool.retries !== undefined && !(Number.isInteger(tool.retries) && (tool.retries as number) >= 0)) return `retries must be a whole number >= 0, got ${String(tool.retries)}`;
  if (tool.timeoutMs !== undefined && !(Number.isInteger(tool.timeoutMs) && (tool.timeoutMs as number) >= 1)) return `timeoutMs must be a whole number >= 1, got ${String(tool.timeoutMs)}`;
  if (tool.effect !== undefined && tool.effect !== 'none' && tool.effect !== 'idempotent' && tool.effect !== 'once') {
    return `effect must be 'none', 'idempotent' or 'once', got ${JSON.stringify(tool.effect) ?? typeof tool.effect}`;
  }
  if (tool.source !== undefined && typeof (tool.source as { observe?: unknown } | null)?.observe !== 'function') return 'source must be an object with an observe() method';
  if (tool.guards !== undefined && !(Array.isArray(tool.guards) && tool.guards.every((guard) => typeof guard === 'function'))) return 'guards must be a list of functions';
  return undefined;
}
