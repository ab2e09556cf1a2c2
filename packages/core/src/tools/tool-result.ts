import type { Coercion } from '@keel/reliability/internal';
import type { ToolResultPart } from '@keel/provider';

/** Error codes a tool result can carry. Guards add their own. */
export type ToolErrorCode =
  | 'unknown-tool'
  | 'validation-failed'
  | 'validator-error'
  | 'tool-error'
  | 'tool-result-invalid'
  | 'tool-timeout'
  | (string & {});

/** The one record of a logical tool call: final arguments, whatever the number of re-asks. */
export interface ToolCallRecord {
  /** The tool call's id, as the run's messages name it. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments the tool ran with, coerced when coercion applied (or the last ones it was refused with). */
  readonly arguments: unknown;
  /** Schema-guided coercions applied to the arguments the tool ran with (present when there were any). */
  readonly coercions?: readonly Coercion[];
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

/** The message part for a record. */
export function toResultPart(record: ToolCallRecord): ToolResultPart {
  return { type: 'tool-result', toolCallId: record.toolCallId, toolName: record.toolName, output: record.output, isError: record.isError };
}
