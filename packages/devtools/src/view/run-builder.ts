import { messageView, parseList, partText, sharedPrefix } from './content-view';
import { count, defined, flag, type Payload, text } from './fields';
import type { ReadEvent } from './parse-trace-line';
import type { AttemptView, FeedbackView, SegmentView, StepView, ToolCallView } from './run-view';

/** A view while it is built: its lists can grow, its fields be set. */
type Draft<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };
export type AttemptDraft = Draft<AttemptView>;
/** `from` and `to`: the positions in the file of the tool call's start and end, to place the sub-agents it ran (absent for a tool call read from a run's record). */
export type ToolDraft = Draft<ToolCallView> & { from?: number; to?: number };
export type StepDraft = Omit<Draft<StepView>, 'attempts' | 'tools'> & { attempts: AttemptDraft[]; tools: ToolDraft[] };
export type SegmentDraft = Omit<Draft<SegmentView>, 'steps'> & { steps: StepDraft[] };

/** The rule a decision names: `rule` where the event carries it, else the gate's `kind`. */
export const ruleOf = (payload: Payload, fallback?: string): string | undefined => text(payload, 'rule') ?? (fallback === undefined ? undefined : text(payload, fallback));

/**
 * Folds one run's events, in order, into segments, steps and attempts. Events that do not fit
 * (an attempt's report before any request, a step before any start) are placed where they can
 * be, never dropped silently: a trace file may be cut or written by another version.
 */
export class RunBuilder {
  readonly segments: SegmentDraft[] = [];
  readonly attempts: AttemptDraft[] = [];
  /** The latest model call of each lane: the step's calls (`''`) and each tool call's re-asks. */
  private readonly lanes = new Map<string, AttemptDraft>();
  private readonly feedback = new Map<string, FeedbackView>();
  private previousInput: unknown[] | undefined;
  private previousKept = 0;

  /** The position in the file of the event being added. */
  position = 0;

  /** Adds the event at `position` in the file. */
  add({ event, payload }: ReadEvent, position: number): void {
    this.position = position;
    const handler = HANDLERS[event];
    if (handler) handler(this, payload);
  }

  /** The open segment, or a new one when the last has ended (its `run.start` is missing). */
  segment(timestamp: number): SegmentDraft {
    const last = this.segments.at(-1);
    return last && last.end === undefined ? last : this.startSegment(timestamp);
  }

  /** A new segment, unless the last one is open and empty (made by a stray event before its start). */
  startSegment(timestamp: number): SegmentDraft {
    const last = this.segments.at(-1);
    if (last && last.end === undefined && last.steps.length === 0) return Object.assign(last, { startedAt: timestamp });
    const segment: SegmentDraft = { startedAt: timestamp, provider: '', model: '', steps: [], notes: [] };
    this.segments.push(segment);
    return segment;
  }

  step(payload: Payload): StepDraft {
    const segment = this.segment(payload.timestamp as number);
    const number = payload.step as number;
    let step = segment.steps.find((candidate) => candidate.step === number);
    if (!step) segment.steps.push((step = { step: number, attempts: [], tools: [], notes: [] }));
    return step;
  }

  lane(payload: Payload): string {
    return text(payload, 'toolCallId') ?? '';
  }

  /** The model call an event of a call reports on (its lane's latest), made up when the request is missing. */
  attempt(payload: Payload): AttemptDraft {
    return this.lanes.get(this.lane(payload)) ?? this.request({ ...payload, attempt: count(payload, 'attempt') ?? 0, purpose: 'unknown' });
  }

  tool(payload: Payload): ToolDraft {
    const step = this.step(payload);
    const id = text(payload, 'toolCallId') ?? '';
    let tool = step.tools.find((candidate) => candidate.toolCallId === id);
    if (!tool) step.tools.push((tool = { toolCallId: id, children: [], from: this.position }));
    return tool;
  }

  request(payload: Payload): AttemptDraft {
    const lane = this.lane(payload);
    const messageCount = count(payload, 'messageCount') ?? 0;
    const ephemeralCount = count(payload, 'ephemeralCount') ?? 0;
    const attempt: AttemptDraft = {
      key: String(this.attempts.length + 1),
      step: payload.step as number,
      attempt: count(payload, 'attempt') ?? 0,
      purpose: text(payload, 'purpose') ?? 'step',
      ...defined({ toolCallId: text(payload, 'toolCallId'), outputMode: text(payload, 'outputMode'), feedback: this.feedback.get(lane) }),
      provider: text(payload, 'provider') ?? '',
      model: text(payload, 'model') ?? '',
      messageCount,
      ephemeralCount,
      newMessageCount: Math.max(0, messageCount - this.previousKept),
      toolChoice: text(payload, 'toolChoice') ?? '',
      issues: [],
      notes: [],
    };
    this.previousKept = messageCount - ephemeralCount;
    this.feedback.delete(lane);
    this.lanes.set(lane, attempt);
    this.attempts.push(attempt);
    this.step(payload).attempts.push(attempt);
    return attempt;
  }

  content(payload: Payload): void {
    const attempt = this.attempt(payload);
    const input = parseList(payload.input);
    if (input) {
      const shared = this.previousInput ? sharedPrefix(this.previousInput, input) : 0;
      attempt.newMessages = input.slice(shared).map(messageView);
      attempt.newMessageCount = input.length - shared;
      this.previousInput = input;
    }
    const output = parseList(payload.output);
    attempt.answer = output ? output.map(partText).join('\n') : (text(payload, 'output') ?? '');
  }

  /** Feedback the lane's next call carries (`after`: the call it answers; the lane's latest here). */
  sendFeedback(lane: string, feedback: FeedbackView, _after: AttemptDraft): void {
    this.feedback.set(lane, feedback);
  }

  /** The call whose arguments a `tool.re-ask` asks again for: the previous re-ask of this tool call, else the step's call. */
  reAskAnswered(payload: Payload): AttemptDraft {
    return hasLane(this, text(payload, 'toolCallId') ?? '') ? this.attempt(payload) : this.attempt({ ...payload, toolCallId: undefined });
  }

  /** The step's call whose final answer was accepted (`output.repaired`): the step lane's latest here. */
  accepted(payload: Payload): AttemptDraft {
    return this.attempt({ ...payload, toolCallId: undefined });
  }

  /** The step's last call, when it has not been decided on: accepted, or its tool calls run. */
  settleStep(payload: Payload): void {
    const attempt = this.lanes.get('');
    if (!attempt || attempt.decision || attempt.step !== payload.step || !attempt.response) return;
    attempt.decision = flag(payload, 'final') === true ? { type: 'accept' } : { type: 'run tools' };
  }
}

type Handler = (run: RunBuilder, payload: Payload) => void;

const note = (run: RunBuilder, payload: Payload, line: string) => {
  if (payload.step === 0) run.segment(payload.timestamp as number).notes.push(line);
  else run.step(payload).notes.push(line);
};

/** What each event does to the view; events not listed change nothing. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  'run.start': (run, payload) => {
    Object.assign(run.startSegment(payload.timestamp as number), { provider: text(payload, 'provider') ?? '', model: text(payload, 'model') ?? '' });
  },
  'run.resumed': (run, payload) => {
    run.segment(payload.timestamp as number).resumed = { suspensionId: text(payload, 'suspensionId') ?? '', approved: count(payload, 'approved') ?? 0, rejected: count(payload, 'rejected') ?? 0 };
  },
  'run.suspended': (run, payload) => {
    run.segment(payload.timestamp as number).suspended = { suspensionId: text(payload, 'suspensionId') ?? '', tools: text(payload, 'tools') ?? '', toolCallIds: text(payload, 'toolCallIds') ?? '', pending: count(payload, 'pending') ?? 0 };
  },
  'run.end': (run, payload) => {
    const segment = run.segment(payload.timestamp as number);
    segment.end = { status: text(payload, 'status') ?? 'ended', durationMs: count(payload, 'durationMs') ?? 0, ...defined({ errorName: text(payload, 'errorName'), errorMessage: text(payload, 'errorMessage') }) };
  },
  'step.start': (run, payload) => void run.step(payload),
  'step.end': (run, payload) => {
    run.step(payload).end = { finishReason: text(payload, 'finishReason') ?? '', toolCalls: count(payload, 'toolCalls') ?? 0, final: flag(payload, 'final') === true };
    run.settleStep(payload);
  },
  'model.request': (run, payload) => void run.request(payload),
  'model.content': (run, payload) => run.content(payload),
  'model.response': (run, payload) => {
    run.attempt(payload).response = {
      finishReason: text(payload, 'finishReason') ?? '',
      inputTokens: count(payload, 'inputTokens') ?? 0,
      outputTokens: count(payload, 'outputTokens') ?? 0,
      cacheReadTokens: count(payload, 'cacheReadTokens') ?? 0,
      cacheWriteTokens: count(payload, 'cacheWriteTokens') ?? 0,
      latencyMs: count(payload, 'latencyMs') ?? 0,
      toolCalls: count(payload, 'toolCalls') ?? 0,
      ...defined({ costUsd: count(payload, 'costUsd') }),
    };
  },
  'model.error': (run, payload) => {
    run.attempt(payload).error = { errorKind: text(payload, 'errorKind') ?? '', errorName: text(payload, 'errorName') ?? '', ...defined({ message: text(payload, 'message') }) };
  },
  'usage.invalid': (run, payload) => void run.attempt(payload).notes.push(`the provider reported ${text(payload, 'field') ?? 'usage'} as ${text(payload, 'received') ?? '?'}: counted as 0`),
  'validation.failed': (run, payload) => {
    run.attempt(payload).issues.push({
      stage: text(payload, 'stage') ?? '',
      issueCount: count(payload, 'issueCount') ?? 0,
      ...defined({ message: text(payload, 'message'), pathText: text(payload, 'pathText'), rawOutput: text(payload, 'rawOutput') }),
    });
  },
  'reliability.retry': (run, payload) => {
    const rule = ruleOf(payload, 'kind');
    const failed = run.attempt(payload);
    failed.decision = { type: text(payload, 'decision') ?? 'retry', ...defined({ rule, errorKind: text(payload, 'errorKind'), delayMs: count(payload, 'delayMs') }) };
    run.sendFeedback(run.lane(payload), { type: 'retry', ...defined({ rule, text: text(payload, 'feedback') }) }, failed);
  },
  'reliability.wait': (run, payload) => note(run, payload, `waited ${count(payload, 'delayMs') ?? 0} ms before attempt ${count(payload, 'attempt') ?? '?'} (${ruleOf(payload, 'kind') ?? 'a rule'})`),
  'reliability.recovered': (run, payload) => {
    run.attempt(payload).decision = { type: 'accept', ...defined({ via: text(payload, 'via'), rule: ruleOf(payload) }) };
  },
  'reliability.fail-fast': (run, payload) => {
    run.attempt(payload).decision = { type: 'fail-fast', ...defined({ rule: ruleOf(payload, 'kind'), errorKind: text(payload, 'errorKind'), label: text(payload, 'label') }) };
  },
  'reliability.rule-error': (run, payload) => void run.attempt(payload).notes.push(`rule ${text(payload, 'ruleKind') ?? '?'} threw in its ${text(payload, 'part') ?? '?'}${payload.message === undefined ? '' : `: ${text(payload, 'message') ?? ''}`}`),
  'reliability.feedback-error': (run, payload) => void run.attempt(payload).notes.push(`a feedback ${text(payload, 'source') ?? ''} threw; the default feedback was sent${payload.message === undefined ? '' : `: ${text(payload, 'message') ?? ''}`}`),
  'tool.start': (run, payload) => {
    const tool = run.tool(payload);
    const name = text(payload, 'tool');
    if (name !== undefined) tool.tool = name;
  },
  'tool.re-ask': (run, payload) => {
    const id = text(payload, 'toolCallId') ?? '';
    const rule = ruleOf(payload);
    // The call that wrote the arguments: the previous re-ask of this tool call, else the step's call.
    const answered = run.reAskAnswered(payload);
    answered.decision ??= { type: 're-ask', ...defined({ rule, label: text(payload, 'tool') }) };
    run.sendFeedback(id, { type: 're-ask', ...defined({ rule, text: text(payload, 'feedback') }) }, answered);
  },
  'tool.validation': (run, payload) => {
    const tool = run.tool(payload);
    tool.validation = { outcome: text(payload, 'outcome') ?? '', retryCount: count(payload, 'retryCount') ?? 0 };
    const name = text(payload, 'tool');
    if (tool.tool === undefined && name !== undefined) tool.tool = name;
    if ((count(payload, 'retryCount') ?? 0) === 0) return;
    const last = run.attempt(payload);
    last.decision ??= text(payload, 'outcome') === 'success' ? { type: 'accept' } : { type: text(payload, 'outcome') ?? 'stop' };
  },
  'tool.end': (run, payload) => {
    const tool = run.tool(payload);
    Object.assign(tool, defined({ tool: text(payload, 'tool') ?? tool.tool, isError: flag(payload, 'isError'), errorCode: text(payload, 'errorCode'), durationMs: count(payload, 'durationMs') }));
    tool.to = run.position;
  },
  'output.repaired': (run, payload) => {
    run.accepted(payload).repaired = { repairs: text(payload, 'repairs') ?? '', coercions: count(payload, 'coercions') ?? 0, ...defined({ coercedPaths: text(payload, 'coercedPaths') }) };
  },
  'output.mode-downgraded': (run, payload) =>
    note(run, payload, `output mode ${text(payload, 'from') ?? '?'} → ${text(payload, 'to') ?? '?'} (${text(payload, 'reason') ?? '?'})${payload.detail === undefined ? '' : `: ${text(payload, 'detail') ?? ''}`}`),
  'context.compacted': (run, payload) => note(run, payload, `context compacted (${text(payload, 'tiers') ?? '?'}): ${count(payload, 'tokensBefore') ?? '?'} → ${count(payload, 'tokensAfter') ?? '?'} estimated tokens`),
  'output.fallback-used': (run, payload) => note(run, payload, `fallback used: ${text(payload, 'tier') ?? '?'}${payload.reason === undefined ? '' : ` (${text(payload, 'reason') ?? ''})`}`),
  'output.schema-lowered': (run, payload) => note(run, payload, `schema lowered for ${text(payload, 'subject') ?? '?'}${payload.tool === undefined ? '' : ` ${text(payload, 'tool') ?? ''}`}: ${text(payload, 'changes') ?? ''}`),
  'listener.error': (run, payload) => note(run, payload, `a listener of ${text(payload, 'event') ?? '?'} failed: ${text(payload, 'errorName') ?? 'Error'}${payload.message === undefined ? '' : `: ${text(payload, 'message') ?? ''}`}`),
};

/** Whether a tool call already had a re-ask (its lane has a call). */
const hasLane = (run: RunBuilder, id: string) => run.attempts.some((attempt) => attempt.toolCallId === id);
