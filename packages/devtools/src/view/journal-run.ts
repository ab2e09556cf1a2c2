import { keptTurnMessages } from '@keel/core/internal';
import { messageView } from './content-view';
import { count, defined, flag, isObject, type Payload, text } from './fields';
import type { ReadEntry } from './parse-trace-line';
import type { AttemptView, MessageView, SegmentView, StepView, ToolCallView, WaitingCallView } from './run-view';

/** A view while it is built: its lists can grow, its fields be set. */
type Draft<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };
/** `position`: the line of the file that holds the call (or, for a call no entry holds yet, the event that named it); `providerIndex`: which of the agent's providers answered. */
export type AttemptDraft = Draft<AttemptView> & { position: number; providerIndex: number };
export type ToolDraft = Draft<ToolCallView>;
export type StepDraft = Omit<Draft<StepView>, 'attempts' | 'tools'> & { attempts: AttemptDraft[]; tools: ToolDraft[] };
/** `position`: the line of the entry that began it; `elapsedMs`: the run's time then. */
export type SegmentDraft = Omit<Draft<SegmentView>, 'steps'> & { steps: StepDraft[]; position: number; elapsedMs: number };

/** A line of the file with where it is. */
export interface Positioned<T> {
  readonly line: T;
  readonly position: number;
}

/** The list field of an entry, its objects only. */
const objects = (entry: Payload, field: string): Payload[] => (Array.isArray(entry[field]) ? (entry[field] as unknown[]).filter(isObject) : []);

/** How one attempt is told from another: its JSON as the file holds it (a sub-agent's calls are in its parent's entries too, byte for byte). */
export const fingerprint = (attempt: Payload): string => JSON.stringify(attempt);

/** The attempts of a run's entries, as fingerprints: what its parent's entries hold of it. */
export const fingerprints = (entries: readonly Positioned<ReadEntry>[]): Set<string> => new Set(entries.flatMap(({ line }) => objects(line, 'attempts').map(fingerprint)));

const waiting = (calls: readonly Payload[]): WaitingCallView[] => calls.map((call) => ({ toolCallId: text(call, 'toolCallId') ?? '', toolName: text(call, 'toolName') ?? '?' }));

/** The fold of one run's journal entries: its parts, steps, model calls and tool calls, in order. */
export class JournalRun {
  readonly segments: SegmentDraft[] = [];
  readonly attempts: AttemptDraft[] = [];
  readonly tools = new Map<string, ToolDraft>();
  /** The usage the last entry states (an end, a failure or a suspension): the run's, its sub-agents' included. */
  stated: Payload | undefined;
  /** Whether every entry was written with content. */
  contentRecorded = true;
  startedAt: number | undefined;
  parentRunId: string | undefined;
  parentToolCallId: string | undefined;
  /** Kept messages added since the last step's call: the next one's new messages. */
  private pending: MessageView[] = [];

  /** The kept messages an entry added: its own, or, for a `tool-results` entry, those its turn and records make (as the journal's fold does). */
  private addedMessages(entry: ReadEntry): Payload[] {
    const own = objects(entry, 'messages');
    if (own.length > 0 || entry.type !== 'tool-results' || !this.turn) return own;
    try {
      return keptTurnMessages(this.turn as never, objects(entry, 'toolCalls') as never) as unknown as Payload[];
    } catch {
      return own;
    }
  }
  /** The turn of tool calls the run is in (a `model-turn` or `resume` entry's next step): a `tool-results` entry's messages are made from it. */
  private turn: { readonly content: readonly unknown[] } | undefined;

  /** Folds `entries` (in file order, each once), leaving out the calls whose fingerprint is in `subAgents` (their own entries hold them). */
  constructor(entries: readonly Positioned<ReadEntry>[], subAgents: ReadonlySet<string>) {
    for (const { line, position } of entries) this.add(line, position, subAgents);
  }

  /** The open part of the run, or a new one when there is none (a cut or hand-made file). */
  segment(position: number, at: number, elapsedMs = 0): SegmentDraft {
    const last = this.segments.at(-1);
    if (last && !last.end) return last;
    const segment: SegmentDraft = { startedAt: at, provider: '', model: '', steps: [], notes: [], position, elapsedMs };
    this.segments.push(segment);
    return segment;
  }

  /** Step `number` of the open part. */
  step(number: number, position: number, at: number): StepDraft {
    const segment = this.segment(position, at);
    let step = segment.steps.find((candidate) => candidate.step === number);
    if (!step) {
      segment.steps.push((step = { step: number, attempts: [], tools: [], notes: [] }));
      segment.steps.sort((a, b) => a.step - b.step);
    }
    return step;
  }

  private add(entry: ReadEntry, position: number, subAgents: ReadonlySet<string>): void {
    const { type, at } = entry;
    const elapsedMs = count(entry, 'elapsedMs') ?? 0;
    const contentRecorded = entry.withoutContent !== true;
    this.contentRecorded &&= contentRecorded;
    const start = isObject(entry.start) ? entry.start : undefined;
    if (type === 'input' || type === 'resume' || type === 'recovery') {
      const last = this.segments.at(-1);
      if (last && !last.end && last.steps.length > 0) last.end = { status: 'stopped' };
      if (!last || last.end || last.steps.length > 0) this.segments.push({ startedAt: count(start ?? {}, 'startedAt') ?? at, provider: '', model: '', steps: [], notes: [], position, elapsedMs });
    }
    const segment = this.segment(position, at, elapsedMs);
    if (start) {
      this.startedAt ??= count(start, 'startedAt') ?? at;
      this.parentRunId ??= text(start, 'parentRunId');
      this.parentToolCallId ??= text(start, 'parentToolCallId');
    }
    if (type === 'recovery') segment.recovered = { step: entry.step };
    if (type === 'resume') {
      const decisions = isObject(entry.decisions) ? Object.values(entry.decisions).filter(isObject) : [];
      const counted = (kind: string) => decisions.filter((decision) => decision.type === kind).length;
      segment.resumed = { approved: counted('approved'), rejected: counted('rejected'), settled: counted('outcome'), retried: counted('retry') };
    }
    for (const attempt of objects(entry, 'attempts')) if (!subAgents.has(fingerprint(attempt))) this.addAttempt(attempt, position, at, contentRecorded);
    if (contentRecorded) this.pending.push(...this.addedMessages(entry).map(messageView));
    const next = isObject(entry.next) ? entry.next : undefined;
    if (next?.type === 'call-tools' && isObject(next.turn) && Array.isArray(next.turn.content)) this.turn = { content: next.turn.content };
    for (const record of objects(entry, 'steps')) {
      const toolCalls = count(record, 'toolCalls');
      const step = this.step(count(record, 'step') ?? entry.step, position, at);
      step.end = { finishReason: text(record, 'finishReason') ?? '', toolCalls: toolCalls ?? 0, final: toolCalls === 0 };
      const accepted = step.attempts.filter((attempt) => attempt.purpose === 'step' && attempt.status === 'valid').at(-1);
      if (accepted?.response) Object.assign(accepted.response, { finishReason: step.end.finishReason, toolCalls: step.end.toolCalls });
      const said = contentRecorded ? text(record, 'text') : undefined;
      if (accepted && accepted.answer === undefined && said) accepted.answer = said;
    }
    const intent = isObject(entry.intent) ? entry.intent : undefined;
    if (intent) this.tool(text(intent, 'toolCallId') ?? '', entry.step, position, at, { toolName: text(intent, 'toolName') });
    for (const call of [...objects(entry, 'toolCalls'), ...(isObject(entry.outcome) ? [entry.outcome] : [])]) {
      const coercions = Array.isArray(call.coercions) ? call.coercions.length : undefined;
      this.tool(text(call, 'toolCallId') ?? '', count(call, 'step') ?? entry.step, position, at, { toolName: text(call, 'toolName'), isError: flag(call, 'isError'), errorCode: text(call, 'errorCode'), durationMs: count(call, 'durationMs'), coercions });
    }
    if (isObject(entry.compaction)) {
      const { compaction } = entry;
      const cleared = isObject(compaction.cleared) ? Object.keys(compaction.cleared).length : 0;
      this.step(entry.step, position, at).notes.push(`context compacted (compaction ${count(compaction, 'count') ?? '?'}): ${cleared} tool result(s) sent as a marker${isObject(compaction.summary) ? ', earlier turns sent as a summary' : ''}`);
    }
    const suspension = isObject(entry.suspension) ? entry.suspension : undefined;
    const end = isObject(entry.end) ? entry.end : undefined;
    if (suspension) {
      segment.suspended = { suspensionId: text(suspension, 'suspensionId') ?? '', pending: waiting(objects(suspension, 'pending')), unknown: waiting(objects(suspension, 'unknown')) };
      segment.end = { status: 'suspended', durationMs: Math.max(0, elapsedMs - segment.elapsedMs) };
    } else if (end && (type === 'end' || type === 'failure')) {
      const status = type === 'end' ? 'complete' : end.aborted === true ? 'aborted' : 'failed';
      segment.end = { status, durationMs: Math.max(0, elapsedMs - segment.elapsedMs), ...defined({ errorName: text(end, 'errorName'), errorMessage: text(end, 'errorMessage') }) };
    }
    const usage = (suspension ?? end)?.usage;
    this.stated = isObject(usage) ? usage : undefined;
  }

  private addAttempt(record: Payload, position: number, at: number, contentRecorded: boolean): void {
    const usage = isObject(record.usage) ? record.usage : {};
    const status = text(record, 'status');
    const inputTokens = count(usage, 'inputTokens') ?? 0;
    const outputTokens = count(usage, 'outputTokens') ?? 0;
    const costUsd = count(usage, 'costUsd');
    const purpose = text(record, 'purpose') ?? 'step';
    const answered = status !== 'error' || inputTokens + outputTokens > 0 || (costUsd ?? 0) > 0;
    const issues = Array.isArray(record.issues) ? record.issues.filter(isObject) : [];
    const attempt: AttemptDraft = {
      key: String(this.attempts.length + 1),
      step: count(record, 'step') ?? 0,
      attempt: count(record, 'attempt') ?? 0,
      purpose,
      provider: '',
      model: '',
      contentRecorded,
      position,
      providerIndex: count(record, 'providerIndex') ?? 0,
      ...defined({ toolCallId: text(record, 'toolCallId'), status, errorKind: text(record, 'errorKind'), feedbackSent: flag(record, 'feedbackSent'), via: text(record, 'via'), answer: text(record, 'rawOutput') }),
      issueCount: issues.length,
      ...(answered
        ? { response: { inputTokens, outputTokens, cacheReadTokens: count(usage, 'cacheReadTokens') ?? 0, cacheWriteTokens: count(usage, 'cacheWriteTokens') ?? 0, ...defined({ costUsd, latencyMs: count(record, 'elapsedMs') }) } }
        : {}),
      issues: issues.length > 0 && contentRecorded ? [{ stage: status === 'invalid' ? 'validation' : (text(record, 'errorKind') ?? ''), issueCount: issues.length, ...defined({ message: text(issues[0] ?? {}, 'message'), pathText: text(issues[0] ?? {}, 'pathText') }) }] : [],
      notes: [],
    };
    if (purpose === 'step' && contentRecorded) {
      attempt.newMessages = this.pending;
      this.pending = [];
    }
    this.attempts.push(attempt);
    this.step(attempt.step, position, at).attempts.push(attempt);
  }

  /** The tool call `id` (one per id over the run: an intent, its outcome and the turn's results are one call), updated with `fields`. */
  private tool(id: string, step: number, position: number, at: number, fields: { readonly [K in keyof ToolDraft]?: ToolDraft[K] | undefined }): void {
    let tool = this.tools.get(id);
    if (!tool) {
      this.tools.set(id, (tool = { toolCallId: id, children: [] }));
      this.step(step, position, at).tools.push(tool);
    }
    Object.assign(tool, defined(fields));
  }
}
