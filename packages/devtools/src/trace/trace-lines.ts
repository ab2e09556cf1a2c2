import type { AgentEvents, JournalEntry, ToolCallRecord } from '@keel/core';
import { TRACED_EVENTS, type TracedEvent } from './content-fields';

/** How lines are made: with content or without, secrets replaced either way. */
export interface LineOptions {
  readonly recordContent: boolean;
  /** Replaces secrets inside JSON text (see `secretRedactor`). */
  readonly redact: (json: string) => string;
  /**
   * Names of tools the traced agents declare, as their calls' records show them (a call of a tool
   * the model made up is recorded `unknown-tool`): without content, only these names are written.
   */
  readonly knownTools: Set<string>;
}

/** Tool names remembered at most: beyond, a name not remembered yet is written as `?` without content. */
const MAX_KNOWN_TOOLS = 10_000;

type Fields = Record<string, unknown>;
type NextStep = NonNullable<JournalEntry['next']>;
type CallDecision = NonNullable<JournalEntry['decisions']>[string];

/** `value` with the keys whose value is `undefined` left out. */
const kept = (value: Fields): Fields => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));

/** A tool call's record without content: its arguments and output left out, its name only when the tool is declared. */
function callWithoutContent(call: ToolCallRecord, tools: Set<string>): Fields {
  const declared = call.errorCode !== 'unknown-tool';
  if (declared && tools.size < MAX_KNOWN_TOOLS) tools.add(call.name);
  return kept({
    id: call.id,
    name: declared ? call.name : undefined,
    coercions: call.coercions?.map((coercion) => ({ kind: coercion.kind })),
    isError: call.isError,
    errorCode: call.errorCode,
    step: call.step,
    durationMs: call.durationMs,
  });
}

/** The next step without what the model wrote: its type, and why for a compaction. */
function nextWithoutContent(next: NextStep): Fields {
  if (next.type === 'compact-context') return { type: next.type, reason: next.reason };
  if (next.type === 'ask-model') return kept({ type: next.type, compacted: next.compacted });
  return { type: next.type };
}

const decisionWithoutContent = (decision: CallDecision): Fields => ({ type: decision.type });

/**
 * A journal entry as a trace writes it without content: the same fields, with every string the
 * model wrote or that can quote it left out (messages, texts, raw outputs, validation messages and
 * paths, tool arguments and outputs, the answer, error messages, the system prompt, names of
 * tools the agents do not declare), and `withoutContent: true`. Counts, kinds, usage, ids and
 * times are kept. `mac` is left out too: it chains the entry with its content.
 */
export function entryWithoutContent(entry: JournalEntry, tools: Set<string>): Fields {
  const { messages: _messages, mac: _mac, steps, toolCalls, attempts, compaction, next, start, intent, outcome, suspension, decisions, end, ...rest } = entry;
  if (intent && tools.size < MAX_KNOWN_TOOLS) tools.add(intent.name);
  const { system: _system, ...started } = start ?? {};
  return kept({
    ...rest,
    start: start && started,
    steps: steps?.map(({ text: _text, ...step }) => step),
    toolCalls: toolCalls?.map((call) => callWithoutContent(call, tools)),
    attempts: attempts?.map(({ rawOutput: _raw, issues, ...attempt }) => ({ ...attempt, issues: issues.map((issue) => ({ kind: issue.kind })) })),
    compaction: compaction && kept({ count: compaction.count, window: compaction.window, cleared: Object.fromEntries(Object.keys(compaction.cleared).map((id) => [id, ''])), summary: compaction.summary && { through: compaction.summary.through } }),
    next: next && nextWithoutContent(next),
    intent: intent && { id: intent.id, name: intent.name },
    outcome: outcome && callWithoutContent(outcome, tools),
    suspension: suspension && {
      agent: suspension.agent,
      expiresAt: suspension.expiresAt,
      suspensionId: suspension.suspensionId,
      suspendedAt: suspension.suspendedAt,
      pending: suspension.pending.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName })),
      ...(suspension.unknown ? { unknown: suspension.unknown.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, idempotencyKey: call.idempotencyKey })) } : {}),
      usage: suspension.usage,
    },
    decisions: decisions && Object.fromEntries(Object.entries(decisions).map(([id, decision]) => [id, decisionWithoutContent(decision)])),
    end: end && kept({ finishReason: end.finishReason, errorName: end.errorName, aborted: end.aborted, usage: end.usage }),
    withoutContent: true,
  });
}

/** The line a journal entry is written as: the entry (without content unless `recordContent`), secrets replaced. */
export function entryLine(entry: JournalEntry, { recordContent, redact, knownTools }: LineOptions): string {
  return `${redact(JSON.stringify(recordContent ? entry : entryWithoutContent(entry, knownTools)))}\n`;
}

/**
 * The line an event is written as, `{"event":…,"payload":…}`: its content fields left out unless
 * `recordContent`, and without it, a loop's tools that are not declared written as `?`. Secrets
 * replaced either way.
 */
export function eventLine<E extends TracedEvent>(event: E, payload: AgentEvents[E], { recordContent, redact, knownTools }: LineOptions): string {
  let written: Fields = payload as unknown as Fields;
  if (!recordContent) {
    const content: readonly string[] = TRACED_EVENTS[event];
    written = Object.fromEntries(Object.entries(written).filter(([key]) => !content.includes(key)));
    if (event === 'reliability.loop-detected' && typeof written.tools === 'string' && written.tools !== '') {
      written.tools = written.tools
        .split(',')
        .map((name) => (knownTools.has(name.trim()) ? name.trim() : '?'))
        .join(',');
    }
  }
  return `${redact(JSON.stringify({ event, payload: written }))}\n`;
}
