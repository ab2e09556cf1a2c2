import { type GateVerdict, ValidationFailure } from '@keel/reliability';
import {
  DEFAULT_PATCH_SETTINGS,
  extractJsonCandidates,
  type GateMemory,
  type JoinedContinuation,
  joinContinuation,
  parseExact,
  patchRequestOf,
  type PatchRequest,
  type PatchSettings,
  readPatchReply,
  settleReadings,
} from '@keel/reliability/internal';
import type { OutputOptions } from '../../contracts/agent-options';
import type { ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolChoice } from '@keel/provider';
import type { RunContext } from '../state/run-context';

/** Continuations in a row by default. */
export const DEFAULT_MAX_CONTINUATIONS = 2;

/** The patch settings of an output's options; `undefined` when patch re-asks are off. */
export function patchSettingsOf(options: OutputOptions | undefined): PatchSettings | undefined {
  const patch = options?.patch;
  if (patch === false || options?.feedback === false) return undefined;
  return { minTokens: patch?.minTokens ?? DEFAULT_PATCH_SETTINGS.minTokens, maxPaths: patch?.maxPaths ?? DEFAULT_PATCH_SETTINGS.maxPaths };
}

/** The patch settings of tool-argument re-asks (which always carry feedback): the output's `patch` option, else the defaults. */
export function toolPatchSettingsOf(options: OutputOptions | undefined): PatchSettings | undefined {
  return patchSettingsOf(options === undefined ? undefined : { ...options, feedback: true });
}

/** The patch request of a tool call's rejected arguments (their text parsed exactly), when a patch re-ask applies. */
export function argumentsPatch(settings: PatchSettings | undefined, failure: Pick<ValidationFailure, 'stage' | 'issues' | 'rawOutput'>): PatchRequest | undefined {
  if (!settings || failure.stage !== 'schema-validate') return undefined;
  const parsed = parseExact(failure.rawOutput);
  return parsed.ok ? patchRequestOf(failure, parsed.value, settings) : undefined;
}

/**
 * The text of tool arguments cut at the token limit (a JSON object that never closes), trailing
 * whitespace removed, when continuation is on: the re-ask continues it rather than asking again.
 */
export function cutArguments(options: OutputOptions | undefined, failure: Pick<ValidationFailure, 'stage' | 'rawOutput'>): string | undefined {
  if (failure.stage !== 'json-parse' || !continuationOf(options)) return undefined;
  const text = failure.rawOutput.trimEnd();
  if (!text.trimStart().startsWith('{')) return undefined;
  return extractJsonCandidates(text, { repair: true }).truncated ? text : undefined;
}

/** The continuation settings of an output's options; `undefined` when continuation is off. */
export function continuationOf(options: OutputOptions | undefined): { readonly maxContinuations: number } | undefined {
  const continuation = options?.continuation;
  if (continuation === false) return undefined;
  const maxContinuations = continuation?.maxContinuations ?? DEFAULT_MAX_CONTINUATIONS;
  return maxContinuations > 0 ? { maxContinuations } : undefined;
}

const isWholeAtLeast = (value: unknown, min: number) => value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= min);

/** What is wrong with the `patch` and `continuation` output options, as `[setting, message]`, or `undefined`. */
export function patchOptionsProblem(options: OutputOptions): readonly [string, string] | undefined {
  const { patch, continuation } = options as { patch?: unknown; continuation?: unknown };
  for (const [name, value, fields] of [
    ['patch', patch, [['minTokens', 1], ['maxPaths', 1]]],
    ['continuation', continuation, [['maxContinuations', 0], ['maxTokens', 1]]],
  ] as const) {
    if (value === undefined || value === false) continue;
    if (typeof value !== 'object' || value === null) return [`outputSchema.${name}`, `must be false or an object, got ${value === null ? 'null' : typeof value}`];
    for (const [field, min] of fields) {
      const given = (value as Record<string, unknown>)[field];
      if (!isWholeAtLeast(given, min)) return [`outputSchema.${name}.${field}`, `must be a whole number >= ${min}, got ${String(given)}`];
    }
  }
  return undefined;
}

/**
 * A provider call that continues the gate's pending cut output (`continueFrom`, the continuation's
 * `maxTokens`, no native response format); the call as it is otherwise.
 */
export function continuing<TResponse, TCall extends { readonly request: ModelRequest }>(state: RunContext, gate: GateMemory<TResponse>, call: TCall): TCall {
  const partial = gate.continuation;
  if (partial === undefined) return call;
  const continuation = state.config.output?.options.continuation;
  const maxTokens = continuation === false ? undefined : continuation?.maxTokens;
  // A constrained decoder would start the value over: the continuation is free text, validated when joined.
  const { responseFormat: _constrained, ...rest } = call.request;
  // Cut tool arguments are continued as text: no tool may be forced over the prefill.
  const tools = gate.settings.toolCall === undefined || rest.tools === undefined ? {} : { toolChoice: NO_TOOL };
  const request: ModelRequest = { ...rest, ...tools, continueFrom: partial, ...(maxTokens === undefined ? {} : { maxTokens }) };
  return { ...call, request };
}

const NO_TOOL: ToolChoice = Object.freeze({ type: 'none' });

/** The attempt's judge and how its output was obtained. */
export interface AttemptJudge<TValue> {
  readonly judge: (response: ModelResponse) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>;
  /** After judging: `patch` or `continuation` when the judged text was not the reply as it stands. */
  readonly via: () => 'patch' | 'continuation' | undefined;
  /** The response the run keeps for an accepted attempt: the reply with the judged text (the joined or patched whole). */
  readonly accepted: (response: ModelResponse | undefined) => ModelResponse | undefined;
}

/** A parse failure of `rawOutput` with `message` (a refused patch, a continuation joined several ways). */
function unusable<TValue>(message: string, rawOutput: string): GateVerdict<TValue> {
  return { status: 'invalid', failure: new ValidationFailure({ stage: 'json-parse', message, rawOutput, issues: [{ path: [], pathText: '(root)', kind: 'other', message }] }) };
}

/** `response` with its text replaced (tool calls kept after it). */
function withText(response: ModelResponse, text: string): ModelResponse {
  const content: (TextPart | ToolCallPart)[] = [{ type: 'text', text }];
  for (const part of response.content) if (part.type === 'tool-call') content.push(part);
  return { ...response, text, content };
}

const hasToolCall = (response: ModelResponse) => response.content.some((part) => part.type === 'tool-call');

/**
 * The judge of one attempt: the call's own judge, after
 * 1. a pending continuation: the reply's text joined to the cut output (what it repeats removed,
 *    see `joinContinuation`), judged as one reply (`via: 'continuation'`); a join that reads as
 *    different values is a parse failure, never a guess;
 * 2. a pending patch request: the reply read as a patch (`readPatchReply`); a patch that applies
 *    is judged as the patched whole value (`via: 'patch'`), a refused one is a parse failure
 *    saying why, and anything else is judged as the complete value it is.
 * For a tool-argument re-ask, the same on the forced tool's arguments: cut arguments are joined
 * with the text that continues them into one tool call (cut again: continued within the bound,
 * then a parse failure fed back), and a patch applies to the call's arguments. Any other turn
 * with tool calls is judged as it is.
 */
export function attemptJudge<TResponse, TValue>(judge: (response: ModelResponse) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>, gate: GateMemory<TResponse>): AttemptJudge<TValue> {
  const partial = gate.continuation;
  const patch = gate.feedback?.patch;
  if (partial === undefined && patch === undefined) return { judge, via: () => undefined, accepted: (response) => response };
  let via: 'patch' | 'continuation' | undefined;
  let judged: ModelResponse | undefined;
  return {
    via: () => via,
    accepted: (response) => judged ?? response,
    judge: (response) => {
      const toolCall = gate.settings.toolCall;
      if (partial !== undefined && toolCall !== undefined && !hasToolCall(response)) {
        // Cut tool arguments: the continuation is the rest of their text.
        const joined = joinContinuation(partial, response.text, response.finishReason !== 'length');
        const asCall = (text: string): ModelResponse => ({ ...response, text: '', finishReason: 'tool-calls', content: [{ type: 'tool-call', id: toolCall.id, name: toolCall.name, arguments: text, argumentsText: text }] });
        if (!joined.ok) {
          return settleJoin(joined, 'arguments', judge, asCall, (settled) => {
            via = 'continuation';
            judged = settled;
          });
        }
        via = 'continuation';
        if (response.finishReason === 'length') {
          // Within the bound, continued again; past it, a parse failure the re-ask feeds back (never a failed run).
          const more = gate.continuations < (gate.settings.continuation?.maxContinuations ?? 0);
          const message = 'The arguments were cut off at the token limit again';
          return more ? { status: 'error', errorKind: 'truncated', message, rawOutput: joined.text } : unusable(`${message}; call the tool again with shorter arguments`, joined.text);
        }
        judged = asCall(joined.text);
        return judge(judged);
      }
      if (hasToolCall(response)) {
        const toolName = gate.settings.toolCall?.name;
        if (patch === undefined || toolName === undefined) return judge(response);
        return judgePatchedArguments(judge, response, toolName, patch, (patched) => {
          via = 'patch';
          judged = patched;
        });
      }
      let reply = response;
      if (partial !== undefined) {
        const joined = joinContinuation(partial, response.text, response.finishReason !== 'length');
        if (!joined.ok) {
          // With a patch pending, a reply that joins several ways is not read further.
          const settle = patch === undefined ? joined : { ok: false as const, message: joined.message, text: joined.text };
          return settleJoin(settle, 'output', judge, (text) => withText(response, text), (settled) => {
            via = 'continuation';
            judged = settled;
          });
        }
        via = 'continuation';
        reply = withText(response, joined.text);
        judged = reply;
      }
      if (patch === undefined || reply.finishReason === 'length') return judge(reply);
      const reading = readPatchReply(reply.text, patch);
      switch (reading.type) {
        case 'complete':
          return judge(reply);
        case 'refused':
          return unusable(`The reply was read as a patch and refused: ${reading.message}`, reply.text);
        case 'patch':
          via = 'patch';
          judged = withText(reply, reading.text);
          return judge(judged);
      }
    },
  };
}

/**
 * A refused join (see `joinContinuation`): when it gives its readings (a finished continuation that
 * reads as several values), each is judged as the reply and the one the judge accepts, valid, is
 * taken; none or several, a parse failure saying so.
 */
function settleJoin<TValue>(
  joined: Extract<JoinedContinuation, { ok: false }>,
  what: 'output' | 'arguments',
  judge: (response: ModelResponse) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>,
  replyOf: (text: string) => ModelResponse,
  taken: (reply: ModelResponse) => void,
): GateVerdict<TValue> | Promise<GateVerdict<TValue>> {
  const refused = unusable<TValue>(`The continuation could not be joined to the cut ${what}: ${joined.message}`, joined.text);
  if (joined.readings === undefined) return refused;
  const settled = settleReadings(joined.readings, (text) => judge(replyOf(text)), (verdict) => verdict.status === 'valid' && (verdict.issues?.length ?? 0) === 0);
  const take = (one: Awaited<typeof settled>): GateVerdict<TValue> => {
    if (one === undefined) return refused;
    taken(replyOf(one.reading.text));
    return one.verdict;
  };
  return settled instanceof Promise ? settled.then(take) : take(settled);
}

/** The arguments' text as the model wrote it (the raw text when the provider gave it). */
function argumentsTextOf(call: ToolCallPart): string {
  if (typeof call.argumentsText === 'string') return call.argumentsText;
  if (typeof call.arguments === 'string') return call.arguments;
  return JSON.stringify(call.arguments ?? {}) ?? '{}';
}

/**
 * A tool-argument re-ask's reply to a patch request: the forced tool's arguments read as a patch
 * of the rejected arguments. A patch that applies becomes the call's arguments (the patched whole,
 * checked as any arguments); a refused one is a parse failure; anything else is judged as it is.
 */
function judgePatchedArguments<TValue>(
  judge: (response: ModelResponse) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>,
  response: ModelResponse,
  toolName: string,
  patch: PatchRequest,
  applied: (patched: ModelResponse) => void,
): GateVerdict<TValue> | Promise<GateVerdict<TValue>> {
  const index = response.content.findIndex((part) => part.type === 'tool-call' && part.name === toolName);
  const call = response.content[index] as ToolCallPart | undefined;
  if (!call) return judge(response);
  const text = argumentsTextOf(call);
  const reading = readPatchReply(text, patch);
  switch (reading.type) {
    case 'complete':
      return judge(response);
    case 'refused':
      return unusable(`The arguments were read as a patch and refused: ${reading.message}`, text);
    case 'patch': {
      const content = response.content.slice();
      content[index] = { ...call, arguments: reading.value, argumentsText: reading.text };
      const patched = { ...response, content };
      applied(patched);
      return judge(patched);
    }
  }
}
