import type { ErrorKind } from '@keel/reliability';
import type { FinishReason, ToolCallPart } from '@keel/provider';
import type { ToolCallRecord } from '../tools/tool-result';
import type { RunResult } from './run-result';

/**
 * A value being written: objects with some properties still missing, arrays with items still to
 * come, each nested value itself partial. What `partial-output` parts carry.
 */
export type DeepPartial<T> = T extends readonly (infer Item)[]
  ? DeepPartial<Item>[]
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

/** A typed piece of `agent.stream()`. The last part of a successful run is `result`. */
export type AgentStreamPart<T = string> =
  | { readonly type: 'step-start'; readonly step: number }
  | {
      readonly type: 'text-delta';
      readonly step: number;
      /**
       * The attempt that produced the text; in pass-through mode an attempt may later be discarded.
       * A patch reply's or a continuation's text is held until it is judged, then shown as the
       * patched whole or the rest of the joined text, so what stays shown is the accepted text.
       */
      readonly attempt: number;
      readonly text: string;
    }
  | {
      /**
       * With an output schema: the answer parsed so far (a lenient read of its JSON text), emitted
       * when it changes. Not validated. In buffer mode partials are held until the answer is
       * accepted; in pass-through mode they flow, and a `retry` part with `discardPartialOutput`
       * says to drop those of its attempt. A field complete in one partial (a property or item
       * followed by another, a number, boolean or null) is present and equal in every later one
       * unless such a `retry` part comes between them: it is the one part that takes partials back.
       */
      readonly type: 'partial-output';
      readonly step: number;
      /** The attempt writing it. */
      readonly attempt: number;
      readonly value: DeepPartial<T>;
    }
  | {
      /** With an output schema: the validated final value (the model's, or a fallback tier's), before `step-end`. */
      readonly type: 'output';
      readonly step: number;
      readonly value: T;
    }
  | { readonly type: 'tool-call-delta'; readonly step: number; readonly toolCallId: string; readonly toolName?: string; readonly argumentsDelta: string }
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
      /**
       * The gate calls the model again after that attempt failed. For an answer cut at the token
       * limit and continued (`errorKind` `truncated`), it comes only when the cut text must be
       * taken back: the continuation started the value over, or the continued answer was rejected.
       * It is also the one part that takes `partial-output` back: with `errorKind: 'ok'` when a
       * turn that showed partials starts a tool call (its text stays), and before a fallback
       * tier's `output` for the attempts whose partials were shown.
       */
      readonly type: 'retry';
      readonly step: number;
      /** The attempt that failed. */
      readonly attempt: number;
      readonly errorKind: ErrorKind;
      /** True when text of the failed attempt was already streamed (pass-through): discard it. */
      readonly discardStreamedText: boolean;
      /** True when `partial-output` parts of the failed attempt were streamed: drop them. */
      readonly discardPartialOutput: boolean;
    }
  | { readonly type: 'step-end'; readonly step: number; readonly finishReason: FinishReason }
  | { readonly type: 'result'; readonly result: RunResult<T> }
  | {
      /**
       * A part of an agent this run called as a tool (`agent.asTool()`), forwarded as it happens.
       * `agent` names it: its tool name, its depth (1 for an agent the streamed run called, 2 for
       * one that agent called), the tool call of its calling agent that runs it, and its run's id.
       * `part` is its own part; a deeper agent's parts come as `agent-part`s of their own, never
       * wrapped twice. Text, `textStream` and the run's answer never include them.
       */
      readonly type: 'agent-part';
      readonly agent: NestedAgent;
      readonly part: AgentStreamPart<unknown>;
    };

/** Which agent called as a tool an `agent-part` comes from. */
export interface NestedAgent {
  /** The agent's tool name (`asTool({ name })`). */
  readonly name: string;
  /** 1 for an agent the streamed run called, 2 for one that agent called, and so on. */
  readonly depth: number;
  /** The tool call, in the calling agent's turn, that runs this agent. */
  readonly toolCallId: string;
  /** The agent's run. */
  readonly runId: string;
}

/** Where a run sends stream parts. */
export interface StreamSink {
  /** `buffer` holds text until the final answer is validated; `pass-through` streams as it comes. */
  readonly mode: 'buffer' | 'pass-through';
  push(part: AgentStreamPart<unknown>): void;
}
