import { messageView, parseList, partText, sharedPrefix } from './content-view';
import { count, defined, flag, type Payload, text } from './fields';
import type { ReadEvent } from './parse-trace-line';
import type { AttemptView, FeedbackView, SegmentView, StepView, ToolCallView } from './run-view';

/** What an event does to the view being built. */
export type EventHandler = (run: RunBuilder, payload: Payload) => void;

/** A view while it is built: its lists can grow, its fields be set. */
type Draft<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };
export type AttemptDraft = Draft<AttemptView>;
/** `from` and `to`: the positions in the file of the tool call's start and end, to place the sub-agents it ran (absent for a tool call read from a run's record). */
export type ToolDraft = Draft<ToolCallView> & { from?: number; to?: number };
export type StepDraft = Omit<Draft<StepView>, 'attempts' | 'tools'> & { attempts: AttemptDraft[]; tools: ToolDraft[] };
export type SegmentDraft = Omit<Draft<SegmentView>, 'steps'> & { steps: StepDraft[] };

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

  /** Folds events with `handlers`: what each event does to the view (`HANDLERS` in event-handlers.ts). */
  constructor(private readonly handlers: Readonly<Record<string, EventHandler>>) {}

  /** Adds the event at `position` in the file. */
  add({ event, payload }: ReadEvent, position: number): void {
    this.position = position;
    const handler = this.handlers[event];
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

/** Whether a tool call already had a re-ask (its lane has a call). */
const hasLane = (run: RunBuilder, id: string) => run.attempts.some((attempt) => attempt.toolCallId === id);
