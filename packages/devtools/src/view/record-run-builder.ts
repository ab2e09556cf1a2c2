import { HANDLERS } from './event-handlers';
import { count, defined, type Payload, text } from './fields';
import type { ReadEvent } from './parse-trace-line';
import { type RecordGroup, recordGroups } from './record-groups';
import { type PreviousRecord, recordSegment } from './record-view';
import { type AttemptDraft, RunBuilder, type SegmentDraft } from './run-builder';
import type { FeedbackView } from './run-view';

/** A model call's key within a segment: its step, its lane (the tool call a re-ask is about, or `''`) and its attempt number. */
const keyOf = (step: number, lane: string, attempt: number) => `${step}\u0000${lane}\u0000${attempt}`;
/** A step's lane, among all the run's. */
const laneKeyOf = (step: number, lane: string) => `${step}\u0000${lane}`;
const laneOf = (attempt: AttemptDraft) => attempt.toolCallId ?? '';

/**
 * Builds a run written in the record format: each `run.record` line makes a segment (its steps,
 * model calls and tool calls), then the events written before it are placed on the model call
 * they name by key — step, lane and attempt number — never by their position in the file.
 * Feedback goes on the next call of its lane. A segment still running (no record yet) shows the
 * calls its events name. The step's accepted call and each re-ask lane's last call are decided
 * (`accept`, `run tools`) from the record, as `step.end` and `tool.validation` did.
 */
export class RecordRunBuilder extends RunBuilder {
  private current: SegmentDraft | undefined;
  /** The calls of the current segment by step and lane, in order, placeholders included. */
  private readonly calls = new Map<string, AttemptDraft[]>();
  /** The last attempt number an event of each step and lane named: where an event that names none belongs. */
  private readonly cursors = new Map<string, number>();
  /** Feedback for the call of each key, set once the segment's events are in. */
  private readonly pending = new Map<string, FeedbackView>();

  constructor() {
    super(HANDLERS);
  }

  /** Builds the run from its lines, in file order. */
  build(events: readonly ReadEvent[]): this {
    let previous: PreviousRecord | undefined;
    for (const group of recordGroups(events)) previous = this.addGroup(group, previous);
    this.settle();
    return this;
  }

  /** Adds one segment: its record's drafts, then its events on them. Returns what the next record of the run builds on. */
  private addGroup(group: RecordGroup, previous: PreviousRecord | undefined): PreviousRecord | undefined {
    const { record } = group;
    // The first record says when the run started; a later segment starts with its first event (its `run.resumed`).
    const startedAt = (previous === undefined && record ? count(record, 'startedAt') : undefined) ?? group.events[0]?.payload.timestamp ?? (record?.timestamp as number | undefined) ?? 0;
    const built = record ? recordSegment(record, previous, startedAt, this.attempts.length + 1) : undefined;
    const segment: SegmentDraft = built?.segment ?? { startedAt, provider: '', model: '', steps: [], notes: [] };
    this.segments.push(segment);
    this.attempts.push(...(built?.attempts ?? []));
    this.current = segment;
    this.calls.clear();
    this.cursors.clear();
    this.pending.clear();
    for (const call of built?.attempts ?? []) this.index(call);
    group.events.forEach((event, position) => this.add(event, position));
    for (const call of [...this.calls.values()].flat()) {
      const feedback = this.pending.get(keyOf(call.step, laneOf(call), call.attempt));
      if (feedback) call.feedback = feedback;
    }
    return built?.previous ?? previous;
  }

  private index(call: AttemptDraft): void {
    const key = laneKeyOf(call.step, laneOf(call));
    const lane = this.calls.get(key);
    if (lane) lane.push(call);
    else this.calls.set(key, [call]);
  }

  override segment(timestamp: number): SegmentDraft {
    return this.current ?? this.startSegment(timestamp);
  }

  /**
   * The call an event names: by its step, lane and attempt number (preferring the call of its
   * `purpose` when the step has two of that number, else not a summary); an event that names no
   * attempt goes to the call the lane's last event named, else the lane's last call. A call the
   * segment does not hold yet (it is running, or the file was edited) is made up, never dropped.
   */
  override attempt(payload: Payload): AttemptDraft {
    const step = payload.step as number;
    const lane = this.lane(payload);
    const number = count(payload, 'attempt');
    if (number === undefined) {
      const cursor = this.cursors.get(laneKeyOf(step, lane));
      return (cursor === undefined ? this.last(step, lane) : this.find(step, lane, cursor, undefined)) ?? this.placeholder(payload, cursor ?? 0);
    }
    this.cursors.set(laneKeyOf(step, lane), number);
    return this.find(step, lane, number, text(payload, 'purpose')) ?? this.placeholder(payload, number);
  }

  /** Feedback goes on the next call of `lane`: the one after `after` in its own lane, the first re-ask of a tool call. */
  override sendFeedback(lane: string, feedback: FeedbackView, after: AttemptDraft): void {
    this.pending.set(keyOf(after.step, lane, laneOf(after) === lane ? after.attempt + 1 : 1), feedback);
  }

  /** The first re-ask answers the step's last call; a later one the re-ask the tool call's last event named. */
  override reAskAnswered(payload: Payload): AttemptDraft {
    return (count(payload, 'reAsk') ?? 1) <= 1 ? this.accepted(payload) : this.attempt({ ...payload, attempt: undefined });
  }

  /** The step's last call (the accepted one), else the call the lane's last event named. */
  override accepted(payload: Payload): AttemptDraft {
    return this.last(payload.step as number, '') ?? this.attempt({ ...payload, toolCallId: undefined, attempt: undefined });
  }

  private find(step: number, lane: string, number: number, purpose: string | undefined): AttemptDraft | undefined {
    const matches = (this.calls.get(laneKeyOf(step, lane)) ?? []).filter((call) => call.attempt === number);
    return matches.find((call) => (purpose === undefined ? call.purpose !== 'summary' : call.purpose === purpose)) ?? matches[0];
  }

  private last(step: number, lane: string): AttemptDraft | undefined {
    return (this.calls.get(laneKeyOf(step, lane)) ?? []).filter((call) => call.purpose !== 'summary').at(-1);
  }

  private placeholder(payload: Payload, number: number): AttemptDraft {
    const lane = this.lane(payload);
    const call: AttemptDraft = {
      key: String(this.attempts.length + 1),
      step: payload.step as number,
      attempt: number,
      purpose: text(payload, 'purpose') ?? (lane === '' ? 'unknown' : 'tool-re-ask'),
      provider: text(payload, 'provider') ?? '',
      model: text(payload, 'model') ?? '',
      ...defined({ toolCallId: lane === '' ? undefined : lane }),
      issues: [],
      notes: [],
    };
    this.attempts.push(call);
    this.index(call);
    this.step(payload).attempts.push(call);
    return call;
  }

  /** Decides, once every segment is in, the calls nothing decided on that the record shows accepted. */
  private settle(): void {
    // The last call of each lane of each step, over the whole run (a step may end after a resume).
    const lastOf = new Map<string, AttemptDraft>();
    for (const call of this.attempts) if (call.purpose !== 'summary') lastOf.set(laneKeyOf(call.step, laneOf(call)), call);
    for (const step of this.segments.flatMap((segment) => segment.steps)) {
      const stepCall = lastOf.get(laneKeyOf(step.step, ''));
      if (step.end && stepCall && !stepCall.decision && stepCall.status === 'ok') stepCall.decision = step.end.final ? { type: 'accept' } : { type: 'run tools' };
    }
    for (const last of lastOf.values()) if (last.toolCallId !== undefined && !last.decision && last.status === 'ok') last.decision = { type: 'accept' };
  }
}
