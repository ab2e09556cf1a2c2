import type { Agent } from '../agent/agent';
import type { AgentStream } from '../agent/agent-stream';
import { failedStream } from '../agent/open-stream';
import type { RunOptions, SuspendedRunResult } from '../contracts/run-result';
import { RunStateError } from '../errors/run-state-error';
import type { SuspendedRunStore } from './suspended-runs';
import type { UIMessageLike } from './ui-message-like';
import { uiMessagesToInput } from './ui-messages-to-input';

/** Options of {@link chatStream}: where suspended runs wait, and the run's options. */
export interface ChatStreamOptions extends Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'> {
  /** Where the states of suspended runs wait for the client's answer (`memorySuspendedRuns()` for one server). */
  readonly suspended: SuspendedRunStore;
}

/**
 * A chat request as the agent's stream: the whole approval round trip of a `useChat` route. The
 * messages `useChat` sent start a run on the conversation; when they answer approvals
 * (`addToolApprovalResponse`), the suspended run they name is resumed from the state kept in
 * `suspended` (`agent.resumeStream`), never started again. A run that suspends keeps its state
 * there before its stream asks the client for approval. Return `toUIMessageStreamResponse()`:
 *
 * ```ts
 * const suspended = memorySuspendedRuns();
 * export async function POST(request: Request): Promise<Response> {
 *   const { messages } = await request.json();
 *   return (await chatStream(agent, messages, { suspended, signal: request.signal })).toUIMessageStreamResponse();
 * }
 * ```
 * A suspension the store does not hold (expired, or never kept here) is the stream's error
 * (`RunStateError`, `malformed`): nothing runs.
 */
export async function chatStream<T>(agent: Agent<T, boolean>, messages: readonly UIMessageLike[], options: ChatStreamOptions): Promise<AgentStream<T>> {
  const { suspended, ...runOptions } = options;
  const keep = (result: SuspendedRunResult) => suspended.set(result.state.suspensionId, result.state, result.state.expiresAt);
  const input = uiMessagesToInput(messages);
  if (input.type === 'start') return agent.stream(input.messages, { ...runOptions, onSuspended: keep });
  const state = await suspended.get(input.suspensionId);
  if (state === undefined || state === null) return failedStream(new RunStateError({ problem: 'malformed', message: `no suspended run is kept under ${JSON.stringify(input.suspensionId)} (it expired, or was never kept in this store)` }));
  return agent.resumeStream(state, input.decisions, { ...runOptions, onSuspended: keep });
}
