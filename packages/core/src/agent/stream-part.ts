import type { ErrorKind } from '@keel/reliability';
import type { ToolCallPart } from '../model/message';
import type { FinishReason } from '../model/model-provider-v1';
import type { ToolCallRecord } from '../tools/tool-result';
import type { RunResult } from './run-result';

/** A typed piece of `agent.stream()`. The last part of a successful run is `result`. */
export type AgentStreamPart<T = string> =
  | { readonly type: 'step-start'; readonly step: number }
  | {
      readonly type: 'text-delta';
      readonly step: number;
      /** The attempt that produced the text; in pass-through mode an attempt may later be discarded. */
      readonly attempt: number;
      readonly text: string;
    }
  | { readonly type: 'tool-call-delta'; readonly step: number; readonly id: string; readonly name?: string; readonly argumentsDelta: string }
  | { readonly type: 'tool-call'; readonly step: number; readonly call: ToolCallPart }
  | { readonly type: 'tool-result'; readonly step: number; readonly record: ToolCallRecord }
  | {
      readonly type: 'validation-failed';
      readonly step: number;
      readonly attempt: number;
      readonly message: string;
      readonly issueCount: number;
    }
  | {
      readonly type: 'retry';
      readonly step: number;
      /** The attempt that failed. */
      readonly attempt: number;
      readonly errorKind: ErrorKind;
      /** True when text of the failed attempt was already streamed (pass-through): discard it. */
      readonly discardStreamedText: boolean;
    }
  | { readonly type: 'step-end'; readonly step: number; readonly finishReason: FinishReason }
  | { readonly type: 'result'; readonly result: RunResult<T> };

/** Where a run sends stream parts. */
export interface StreamSink {
  /** `buffer` holds text until the final answer is validated; `pass-through` streams as it comes. */
  readonly mode: 'buffer' | 'pass-through';
  push(part: AgentStreamPart<unknown>): void;
}
