import type { DeepPartial } from '../contracts/stream-part';

/** Why a UI message ended, as the AI SDK's UI names it. */
export type UIFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/**
 * A chunk of a UI message stream: the AI SDK 6 UI message protocol (the `ai` package's
 * `UIMessageChunk`, read by `useChat` and `readUIMessageStream`), the chunks a Keel stream writes.
 * Declared here by shape, so `@keel/core` needs no `ai` at run time; each member is assignable
 * to the `ai` package's type.
 */
export type UIMessageChunk<T = unknown> =
  | { readonly type: 'start'; readonly messageId?: string }
  | { readonly type: 'start-step' }
  | { readonly type: 'text-start'; readonly id: string }
  | { readonly type: 'text-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'text-end'; readonly id: string }
  | { readonly type: 'tool-input-available'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  | { readonly type: 'tool-approval-request'; readonly approvalId: string; readonly toolCallId: string }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: unknown }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string }
  | { readonly type: 'tool-output-denied'; readonly toolCallId: string }
  | {
      /** With `sendOutput`: the step's output, partial while it is written, then the validated value (one part, updated by id). */
      readonly type: 'data-output';
      readonly id: string;
      readonly data: DeepPartial<T>;
    }
  | {
      /** The text of an agent the run called as a tool (`agent.asTool()`), one part per step of its run, updated by id as it streams. */
      readonly type: 'data-agent-text';
      readonly id: string;
      readonly data: NestedAgentData & { readonly text: string };
    }
  | {
      /** A tool call of an agent the run called as a tool, one part per call, updated by id: its input, then its outcome. */
      readonly type: 'data-agent-tool';
      readonly id: string;
      readonly data: NestedAgentData & { readonly call: NestedToolCall };
    }
  | { readonly type: 'finish-step' }
  | { readonly type: 'finish'; readonly finishReason: UIFinishReason }
  | { readonly type: 'error'; readonly errorText: string }
  | { readonly type: 'abort' };

/** Which agent called as a tool a `data-agent-*` part comes from (see `NestedAgent`). */
export interface NestedAgentData {
  /** The agent's tool name. */
  readonly agent: string;
  /** 1 for an agent the streamed run called, 2 for one that agent called, and so on. */
  readonly depth: number;
  /** The tool call, in the calling agent's turn, that runs the agent. */
  readonly toolCallId: string;
}

/** A nested agent's tool call as a `data-agent-tool` part shows it, in the AI SDK's tool part states. */
export type NestedToolCall =
  | { readonly toolCallId: string; readonly toolName: string; readonly state: 'input-available' | 'approval-requested'; readonly input: unknown }
  | { readonly toolCallId: string; readonly toolName: string; readonly state: 'output-available'; readonly input: unknown; readonly output: unknown }
  | { readonly toolCallId: string; readonly toolName: string; readonly state: 'output-error'; readonly input: unknown; readonly errorText: string }
  | { readonly toolCallId: string; readonly toolName: string; readonly state: 'output-denied'; readonly input: unknown };

/** Options of `stream.toUIMessageStream()`. */
export interface UIMessageStreamOptions {
  /** The assistant message's id, sent in the `start` chunk (default: none, the reader picks one). */
  readonly messageId?: string;
  /**
   * Also send an output schema's value as a `data-output` part (id `output-<step>`): each partial
   * value as it is written, then the validated one. Default `false`: the answer is its JSON text
   * in a text part, as the AI SDK's own output streams it.
   */
  readonly sendOutput?: boolean;
  /**
   * The text the client gets for an error: the `error` chunk a failed run ends with (called with
   * the run's error), and each failed tool call's `errorText` (called with its `ToolCallRecord`,
   * whose `output` is what the model read). Default: `An error occurred.` for both, as the AI SDK
   * does: an error's message can hold what a browser should not see (a connection string, a
   * stack); the `result` promise and the records keep it.
   */
  readonly onError?: (error: unknown) => string;
}

/** Options of `stream.toUIMessageStreamResponse()`: the stream's, and the response's status and extra headers. */
export interface UIMessageStreamResponseOptions extends UIMessageStreamOptions {
  readonly status?: number;
  readonly statusText?: string;
  /** Headers added to the stream's own (a name given here wins). */
  readonly headers?: Readonly<Record<string, string>>;
}
