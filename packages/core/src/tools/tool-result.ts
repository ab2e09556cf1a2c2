import type { ToolResultPart } from '../model/message';

/** Error codes a tool result can carry. Guards add their own. */
export type ToolErrorCode = 'UNKNOWN_TOOL' | 'VALIDATION_FAILED' | 'VALIDATOR_ERROR' | 'TOOL_ERROR' | (string & {});

/** The one record of a logical tool call: final arguments, whatever the number of re-asks. */
export interface ToolCallRecord {
  readonly id: string;
  readonly name: string;
  /** The arguments the tool ran with (or the last ones it was refused with). */
  readonly arguments: unknown;
  /** What the model was sent. */
  readonly output: string;
  readonly isError: boolean;
  readonly errorCode?: ToolErrorCode;
  readonly step: number;
  readonly durationMs: number;
}

/** The text of an error result, as the model reads it. */
export function errorOutput(code: ToolErrorCode, message: string): string {
  return `Error [${code}]: ${message}`;
}

/** A tool's return value as the model reads it: strings as they are, anything else as JSON. */
export function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The message part for a record. */
export function toResultPart(record: ToolCallRecord): ToolResultPart {
  return { type: 'tool-result', toolCallId: record.id, toolName: record.name, output: record.output, isError: record.isError };
}
