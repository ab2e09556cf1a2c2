import type { NestedApproval } from '../tools/pending-approval';
import type { ToolCallRecord } from '../tools/tool-result';
import type { AgentStreamPart, NestedAgent } from '../contracts/stream-part';
import type { NestedAgentData, NestedToolCall, UIMessageChunk, UIMessageStreamOptions } from './ui-message-chunk';

/** The text each nested agent's step has shown so far, by the id of its `data-agent-text` part. */
export type NestedTexts = Map<string, string>;

/**
 * A part of an agent called as a tool (an `agent-part`) as UI chunks: `data-agent-text` for its
 * text (one part per step of its run, sent whole each time, so the client replaces it: a retried
 * attempt's text is replaced by the next attempt's), `data-agent-tool` for each of its tool calls
 * (its input, then its outcome). Data parts, so the client's messages sent back never make them
 * the calling model's own turns (`convertToModelMessages` and `uiMessagesToInput` skip them).
 * A tool's error is masked as the run's own are.
 */
export function* nestedChunks(agent: NestedAgent, part: AgentStreamPart<unknown>, texts: NestedTexts, options: UIMessageStreamOptions): Generator<UIMessageChunk<never>> {
  const data: NestedAgentData = { agent: agent.name, depth: agent.depth, toolCallId: agent.toolCallId };
  switch (part.type) {
    case 'text-delta': {
      const id = `agent-${agent.runId}-text-${part.step}`;
      const text = (texts.get(id) ?? '') + part.text;
      texts.set(id, text);
      return yield { type: 'data-agent-text', id, data: { ...data, text } };
    }
    case 'retry': {
      // The attempt's text is not kept: the part is emptied, and the next attempt writes it again.
      const id = `agent-${agent.runId}-text-${part.step}`;
      if (!texts.get(id)) return;
      texts.set(id, '');
      return yield { type: 'data-agent-text', id, data: { ...data, text: '' } };
    }
    case 'tool-call': {
      const call: NestedToolCall = { toolCallId: part.call.id, toolName: part.call.name, state: 'input-available', input: part.call.arguments ?? null };
      return yield { type: 'data-agent-tool', id: `agent-${agent.runId}-tool-${part.call.id}`, data: { ...data, call } };
    }
    case 'tool-result':
      return yield { type: 'data-agent-tool', id: `agent-${agent.runId}-tool-${part.record.toolCallId}`, data: { ...data, call: outcomeOf(part.record, options) } };
    default:
      // Its steps, partial values and re-asks are not shown: its answer is the tool call's result.
      return;
  }
}

/**
 * The calls an agent waiting inside a pending call waits on, as `data-agent-tool` parts in the
 * state `approval-requested` (the approval itself is asked on the pending call); an agent that
 * waits inside one of them, its calls too, one level deeper.
 */
export function* nestedApprovals(toolCallId: string, nested: NestedApproval): Generator<UIMessageChunk<never>> {
  const data: NestedAgentData = { agent: nested.agent, depth: nested.depth, toolCallId };
  for (const call of nested.pending) {
    yield { type: 'data-agent-tool', id: `agent-${nested.runId}-tool-${call.toolCallId}`, data: { ...data, call: { toolCallId: call.toolCallId, toolName: call.toolName, state: 'approval-requested', input: call.arguments ?? null } } };
    if (call.nested) yield* nestedApprovals(call.toolCallId, call.nested);
  }
}

function outcomeOf(record: ToolCallRecord, options: UIMessageStreamOptions): NestedToolCall {
  const call = { toolCallId: record.toolCallId, toolName: record.toolName, input: record.arguments ?? null };
  if (!record.isError) return { ...call, state: 'output-available', output: record.output };
  if (record.errorCode === 'approval-rejected') return { ...call, state: 'output-denied' };
  return { ...call, state: 'output-error', errorText: options.onError ? options.onError(record) : 'An error occurred.' };
}
