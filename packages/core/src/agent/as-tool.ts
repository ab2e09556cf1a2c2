import { AbortedError, type AnySchema } from '@keel/reliability';
import { reduceError } from '@keel/reliability/internal';
import type { ParentRun } from '../tools/parent-run';
import { parentRunOf } from '../tools/parent-run';
import { NestedSuspension } from '../tools/nested-suspension';
import type { ResumeDecisions } from '../run/state/resume-decisions';
import { type Tool, type ToolContext, tool } from '../tools/tool';
import { newRunId } from '../run/run-loop';
import type { RunInput, RunOptions, RunResult } from '../contracts/run-result';
import type { NestedAgent, StreamSink } from '../contracts/stream-part';

/** The input of an agent called as a tool, unless `input` says otherwise. */
export interface MessageInput {
  readonly message: string;
}

/** Settings of `agent.asTool()`. */
export interface AsToolOptions<S extends AnySchema | undefined> {
  /** The tool's name, as the calling model sees it (1–64 letters, digits, `_` or `-`). */
  readonly name: string;
  /** What the agent does and when to call it, for the calling model. */
  readonly description: string;
  /**
   * The input schema; default `{ message: string }` (the message is the agent's input). With
   * another schema, the agent receives the validated value as JSON text, one user message.
   */
  readonly input?: S;
  /** Milliseconds the agent may take as a tool before its call ends with `tool-timeout` (its run is aborted). */
  readonly timeoutMs?: number;
  /** Whether the calling agent sends this tool only once `tool_search` finds it (see `ToolDefinition.defer`). */
  readonly defer?: boolean;
}

/** The default input schema: one message. */
const MESSAGE_INPUT = Object.freeze({
  type: 'object',
  properties: Object.freeze({ message: Object.freeze({ type: 'string', description: 'What to ask; the agent sees only this message.' }) }),
  required: Object.freeze(['message']),
  additionalProperties: false,
});

/** Runs the agent for one tool call: its input, the run's options, and the calling run; or resumes it (`resume`) where it suspended inside the call. */
type RunAgent<T> = (input: RunInput, options: RunOptions, parent: ParentRun | undefined, sink: StreamSink | undefined, resume?: NestedResume) => Promise<RunResult<T>>;

/** An agent's suspended state and the decisions that resume it, inside the call it suspended in. */
export interface NestedResume {
  readonly state: unknown;
  readonly decisions: ResumeDecisions;
}

/**
 * The sink of an agent called by a streamed run: its parts go to the calling run's sink as
 * `agent-part`s naming it (a deeper agent's already name theirs). Its text is held until its
 * answer validates (`buffer`): the calling run's reader cannot take it back.
 */
function nestedSink(sink: StreamSink, agent: NestedAgent): StreamSink {
  return { mode: 'buffer', push: (part) => sink.push(part.type === 'agent-part' ? part : { type: 'agent-part', agent, part }) };
}

/**
 * The calling run as the agent's run sees it. A resumed agent's run first records the model calls
 * it made before it suspended (`skip` of them) in its own ledger: the calling run counted them
 * then, so they are not forwarded again.
 */
function callingRun(parent: ParentRun, skip: number): ParentRun {
  let skipped = 0;
  const record = skip === 0 ? parent.record : (attempt: Parameters<ParentRun['record']>[0]) => (skipped < skip ? void skipped++ : parent.record(attempt));
  const { runId, toolCallId, depth, maxDepth, usage, preCheck, pricing, sink } = parent;
  return { runId, toolCallId, record, depth, maxDepth, usage, preCheck, ...(pricing === undefined ? {} : { pricing }), ...(sink === undefined ? {} : { sink }) };
}

/** The decisions that resume a suspended agent inside its call: the calling run's one decision, on each call it waits on. */
function nestedResume(resume: NonNullable<ParentRun['resume']>): NestedResume {
  const pending = (resume.state as { pending?: readonly { toolCallId?: unknown }[] } | null)?.pending ?? [];
  const ids = pending.flatMap((call) => (typeof call?.toolCallId === 'string' ? [call.toolCallId] : []));
  const decisions = resume.approved ? { approve: ids } : { reject: ids.map((id) => (resume.reason === undefined ? { id } : { id, reason: resume.reason })) };
  return { state: resume.state, decisions };
}

/**
 * An agent as a tool: runs it with the call's input, signal and calling run; returns its value
 * (or text). Its failures become errors the tool call reports as error results; an abort of the
 * calling run stays an abort. When it suspends for approvals inside a run, the call waits: the
 * calling run suspends with its state (`NestedSuspension`), and resumed, resumes it here.
 */
export function agentAsTool<T>(options: AsToolOptions<AnySchema | undefined>, run: RunAgent<T>): Tool<unknown, T> {
  const custom = options?.input !== undefined;
  return tool({
    name: options?.name,
    description: options?.description,
    input: (options?.input ?? MESSAGE_INPUT) as AnySchema,
    ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options?.defer === undefined ? {} : { defer: options.defer }),
    execute: async (input: unknown, context: ToolContext): Promise<T> => {
      const message = custom ? JSON.stringify(input) : (input as MessageInput).message;
      const parent = parentRunOf(context);
      const resume = parent?.resume ? nestedResume(parent.resume) : undefined;
      const resumedAttempts = (resume?.state as { attempts?: readonly unknown[] } | undefined)?.attempts?.length ?? 0;
      // A streamed calling run gets this agent's parts, naming it; its run's id is chosen here for them (a resumed run keeps its own).
      const runId = resume ? String((resume.state as { runId?: unknown }).runId) : parent?.sink ? newRunId() : undefined;
      const sink = parent?.sink && runId ? nestedSink(parent.sink as StreamSink, { name: options.name, depth: parent.depth + 1, toolCallId: parent.toolCallId, runId }) : undefined;
      let result: RunResult<T>;
      try {
        result = await run(message, runId && !resume ? { signal: context.signal, runId } : { signal: context.signal }, parent ? callingRun(parent, resumedAttempts) : undefined, sink, resume);
      } catch (error) {
        // The calling run's abort (or this call's timeout) stays what it is; any other failure of
        // the agent, its own aborts included, is the tool's error.
        if (context.signal.aborted) throw error;
        const reduced = reduceError(error);
        throw new Error(`the agent '${options.name}' failed: ${AbortedError.isInstance(error) ? 'it was aborted' : `${reduced.name}: ${reduced.message}`}`, { cause: error });
      }
      if (result.status === 'suspended') {
        const { pendingApprovals: pending, state } = result;
        if (parent) throw new NestedSuspension({ agent: options.name, depth: parent.depth + 1, runId: state.runId, pending, state });
        const waiting = pending.map((call) => call.toolName).join(', ');
        throw new Error(`the agent '${options.name}' stopped at tool calls that need approval (${waiting}); an agent called as a tool outside a run cannot wait for approvals`);
      }
      return result.value;
    },
  }) as unknown as Tool<unknown, T>;
}
