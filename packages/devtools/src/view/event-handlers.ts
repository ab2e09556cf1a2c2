import { count, defined, flag, type Payload, text } from './fields';
import type { EventHandler, RunBuilder } from './run-builder';

/** The rule a decision names: `rule` where the event carries it, else the gate's `kind`. */
const ruleOf = (payload: Payload, fallback?: string): string | undefined => text(payload, 'rule') ?? (fallback === undefined ? undefined : text(payload, fallback));

const note = (run: RunBuilder, payload: Payload, line: string) => {
  if (payload.step === 0) run.segment(payload.timestamp as number).notes.push(line);
  else run.step(payload).notes.push(line);
};

/** What each event does to the view; events not listed change nothing. */
export const HANDLERS: Readonly<Record<string, EventHandler>> = {
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
