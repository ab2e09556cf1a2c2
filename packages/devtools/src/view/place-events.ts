import { count, defined, type Payload, text } from './fields';
import type { AttemptDraft, JournalRun, Positioned } from './journal-run';
import type { ReadEvent } from './parse-trace-line';

/** The rule an event names: `rule` where it carries one, else the gate's `kind`. */
const ruleOf = (payload: Payload): string | undefined => text(payload, 'rule') ?? text(payload, 'kind');

const laneOf = (payload: Payload): string => text(payload, 'toolCallId') ?? '';

/**
 * Places a run's events on the model calls of its journal. An event names its call by step, lane
 * (the tool call a re-ask is about, or none) and attempt number, and is written before the entry
 * that holds the call: it goes to the first such call written after it (a step retried after a
 * recovery has its number twice), else the last one before it. A call no entry holds (the run is
 * still on it, or its process stopped) is made from the event, never dropped.
 */
export class EventPlacer {
  /** Calls whose issues came from their record, replaced by the first `validation.failed` of them. */
  private readonly recordIssues = new Set<AttemptDraft>();

  constructor(private readonly run: JournalRun) {
    for (const attempt of run.attempts) if (attempt.issues.length > 0) this.recordIssues.add(attempt);
  }

  /** Places every event, in file order. */
  placeAll(events: readonly Positioned<ReadEvent>[]): void {
    for (const { line, position } of events) this.place(line, position);
  }

  /** The call of `step`, `lane` and `number` the event at `position` names, made when there is none. */
  private find(step: number, lane: string, number: number, position: number): AttemptDraft {
    const matches = this.run.attempts.filter((attempt) => attempt.step === step && (attempt.toolCallId ?? '') === lane && attempt.attempt === number && attempt.purpose !== 'summary');
    const found = matches.find((attempt) => attempt.position > position) ?? matches.at(-1);
    if (found) return found;
    const made: AttemptDraft = { key: String(this.run.attempts.length + 1), step, attempt: number, purpose: lane === '' ? 'step' : 'tool-re-ask', provider: '', model: '', contentRecorded: this.run.contentRecorded, position, providerIndex: 0, ...defined({ toolCallId: lane === '' ? undefined : lane }), issues: [], notes: [] };
    this.run.attempts.push(made);
    this.run.step(step, position, 0).attempts.push(made);
    return made;
  }

  /** The step's last call of its own lane around `position`: the one an event about its accepted answer names. */
  private stepCall(step: number, position: number, before: boolean): AttemptDraft {
    const calls = this.run.attempts.filter((attempt) => attempt.step === step && attempt.purpose === 'step' && attempt.toolCallId === undefined);
    const chosen = before ? calls.filter((attempt) => attempt.position < position).at(-1) : calls.find((attempt) => attempt.position > position);
    return chosen ?? calls.at(-1) ?? this.find(step, '', 1, position);
  }

  private note(payload: Payload, position: number, line: string): void {
    const step = payload.step as number;
    if (step === 0) this.run.segment(position, payload.timestamp as number).notes.push(line);
    else this.run.step(step, position, payload.timestamp as number).notes.push(line);
  }

  private place({ event, payload }: ReadEvent, position: number): void {
    const step = payload.step;
    const call = () => this.find(step, laneOf(payload), count(payload, 'attempt') ?? 1, position);
    switch (event) {
      case 'run.start': {
        const segment = this.run.segments.find((candidate) => candidate.position > position && candidate.provider === '') ?? this.run.segments.at(-1);
        if (segment) Object.assign(segment, { provider: text(payload, 'provider') ?? '', model: text(payload, 'model') ?? '' });
        return;
      }
      case 'model.error':
        call().error = { errorKind: text(payload, 'errorKind') ?? '', errorName: text(payload, 'errorName') ?? '', ...defined({ message: text(payload, 'message') }) };
        return;
      case 'usage.invalid':
        call().notes.push(`the provider reported ${text(payload, 'field') ?? 'usage'} as ${text(payload, 'received') ?? '?'}: counted as 0`);
        return;
      case 'validation.failed': {
        const failed = call();
        if (this.recordIssues.delete(failed)) failed.issues = [];
        failed.issues.push({ stage: text(payload, 'stage') ?? '', issueCount: count(payload, 'issueCount') ?? 0, ...defined({ message: text(payload, 'message'), pathText: text(payload, 'pathText'), rawOutput: text(payload, 'rawOutput') }) });
        return;
      }
      case 'reliability.retry': {
        const rule = text(payload, 'rejectedBy') ?? ruleOf(payload);
        const failed = call();
        failed.decision = { type: text(payload, 'decision') ?? 'retry', ...defined({ rule, errorKind: text(payload, 'errorKind'), delayMs: count(payload, 'delayMs') }) };
        this.find(step, laneOf(payload), failed.attempt + 1, position).feedback = { type: 'retry', ...defined({ rule, text: text(payload, 'feedback') }) };
        return;
      }
      case 'reliability.recovered':
        call().decision = { type: 'accept', ...defined({ via: text(payload, 'via'), rule: text(payload, 'rule') }) };
        return;
      case 'reliability.fail-fast':
        call().decision = { type: 'fail-fast', ...defined({ rule: ruleOf(payload), errorKind: text(payload, 'errorKind'), label: text(payload, 'label') }) };
        return;
      case 'reliability.rule-error':
        call().notes.push(`rule ${text(payload, 'rule') ?? '?'} threw in its ${text(payload, 'part') ?? '?'}${payload.message === undefined ? '' : `: ${text(payload, 'message') ?? ''}`}`);
        return;
      case 'reliability.feedback-error':
        call().notes.push(`a feedback ${text(payload, 'source') ?? ''} threw; the default feedback was sent${payload.message === undefined ? '' : `: ${text(payload, 'message') ?? ''}`}`);
        return;
      case 'tool.re-ask': {
        const id = laneOf(payload);
        const reAsk = count(payload, 'reAsk') ?? 1;
        const rule = ruleOf(payload);
        // The call that wrote the arguments: the step's (its entry was written before the re-ask), else the previous re-ask.
        const answered = reAsk <= 1 ? this.stepCall(step, position, true) : this.find(step, id, reAsk - 1, position);
        answered.decision ??= { type: 're-ask', ...defined({ rule, label: text(payload, 'toolName') }) };
        this.find(step, id, reAsk, position).feedback = { type: 're-ask', ...defined({ rule, text: text(payload, 'feedback') }) };
        return;
      }
      case 'output.repaired':
        this.stepCall(step, position, false).repaired = { repairs: text(payload, 'repairs') ?? '', coercions: count(payload, 'coercions') ?? 0, ...defined({ coercedPaths: text(payload, 'coercedPaths') }) };
        return;
      case 'reliability.wait':
        return this.note(payload, position, `waited ${count(payload, 'delayMs') ?? 0} ms before attempt ${count(payload, 'attempt') ?? '?'} (${ruleOf(payload) ?? 'a rule'})`);
      case 'reliability.loop-detected':
        return this.note(payload, position, `action loop (${text(payload, 'loop') ?? '?'}) of ${text(payload, 'tools') || 'a repeated reply'} after ${count(payload, 'rounds') ?? '?'} round(s): ${text(payload, 'action') ?? '?'}`);
      case 'output.mode-downgraded':
        return this.note(payload, position, `output mode ${text(payload, 'from') ?? '?'} → ${text(payload, 'to') ?? '?'} (${text(payload, 'reason') ?? '?'})${payload.detail === undefined ? '' : `: ${text(payload, 'detail') ?? ''}`}`);
      case 'output.schema-lowered':
        return this.note(payload, position, `schema lowered for ${text(payload, 'subject') ?? '?'}${payload.toolName === undefined ? '' : ` ${text(payload, 'toolName') ?? ''}`}: ${text(payload, 'changes') ?? ''}`);
      case 'context.compacted':
        return this.note(payload, position, `compaction (${text(payload, 'tiers') ?? '?'}, ${text(payload, 'reason') ?? '?'}): ${count(payload, 'tokensBefore') ?? '?'} → ${count(payload, 'tokensAfter') ?? '?'} estimated tokens`);
      case 'output.fallback-used':
        return this.note(payload, position, `fallback used: ${text(payload, 'tier') ?? '?'}${payload.reason === undefined ? '' : ` (${text(payload, 'reason') ?? ''})`}`);
      case 'listener.error':
        return this.note(payload, position, `a listener of ${text(payload, 'event') ?? '?'} failed: ${text(payload, 'errorName') ?? 'Error'}${payload.message === undefined ? '' : `: ${text(payload, 'message') ?? ''}`}`);
      default:
    }
  }
}
