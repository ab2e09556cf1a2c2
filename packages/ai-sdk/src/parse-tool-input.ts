import type { ToolCallPart } from '@keel/provider';

/**
 * A tool call from the spec's JSON-encoded `input`: `argumentsText` is that text exactly (core reads
 * it with its exact parser, so duplicate keys and numbers a double cannot hold are caught), and
 * `arguments` its parsed value, or the raw text when it is not JSON. Blank input is a call without
 * arguments (`{}`); an input that is not a string (a model off the spec) is taken as it is.
 */
export function toolCallOf(id: string, name: string, input: unknown): ToolCallPart {
  if (typeof input !== 'string') return { type: 'tool-call', id, name, arguments: input ?? {} };
  if (input.trim() === '') return { type: 'tool-call', id, name, arguments: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(input) as unknown;
  } catch {
    parsed = input;
  }
  return { type: 'tool-call', id, name, arguments: parsed, argumentsText: input };
}
