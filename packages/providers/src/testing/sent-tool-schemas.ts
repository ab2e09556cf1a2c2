import type { ToolSpecification } from '@keel/provider';
import { expect } from 'vitest';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A request body with each tool's schema (found by `schemaAt` in the vendor's tool shape, e.g.
 * `['input_schema']`) checked to be the given tool's `inputSchema` as it is, and then replaced by
 * a mark: a snapshot of the whole body shows what the adapter wrote, not the test's schemas again.
 */
export function withToolSchemasChecked(body: unknown, tools: readonly ToolSpecification[], schemaAt: readonly [string, ...string[]]): unknown {
  if (!isObject(body) || !Array.isArray(body['tools'])) return body;
  const sent = body['tools'].map((tool: unknown, index) => {
    const path = schemaAt.slice(0, -1);
    const key = schemaAt[schemaAt.length - 1] as string;
    const copy: Json = { ...(tool as Json) };
    let holder = copy;
    for (const step of path) holder = holder[step] = { ...(holder[step] as Json) };
    expect(holder[key], `the schema of tool ${index}`).toEqual(tools[index]?.inputSchema);
    holder[key] = `[inputSchema of ${tools[index]?.name ?? 'no tool'}]`;
    return copy;
  });
  return { ...body, tools: sent };
}
