import { AbortedError, formatFeedback, quote, type ValidationIssue } from '@keel/reliability';
import { type Coercion } from '@keel/reliability/internal';
import { CHARS_PER_TOKEN, escapeControl, truncateEcho, coerceToSchema, issueSignature, reduceError, withShapes, raceSignal } from '@keel/reliability/internal';
import type { CallWrapper } from '../shared/call-wrapper';
import type { EventPayload, ToolValidationOutcome } from '../events/agent-events';
import type { Message, ToolCallPart } from '../model/message';
import type { ModelResponse, ToolChoice } from '../model/model-provider-v1';
import { type GuardRejection, runGuards, type ToolGuard } from './guard';
import { stableStringify } from './stable-equal';
import type { AnyTool, ToolContext } from './tool';
import { serializeToolResult } from './serialize-tool-result';
import { errorOutput, type ToolCallRecord } from './tool-result';

/** What running a tool call needs from the run. */
export interface ToolRunEnvironment {
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The agent's guards, run before each tool's own. */
  readonly guards: readonly ToolGuard[];
  /** Default re-asks per tool call. */
  readonly toolRetries: number;
  readonly runId: string;
  readonly step: number;
  /** The signal tools receive (made on first read when the run has none). */
  readonly toolSignal: () => AbortSignal;
  /** The caller's signal, when the run can be cancelled: running tools are raced against it. */
  readonly abortSignal: AbortSignal | undefined;
  /** True when anything listens to `event`, so payloads are built only when read. */
  readonly listens: (event: ToolEventName) => boolean;
  /** Emits a tool event of the run. */
  readonly emit: <E extends ToolEventName>(event: E, payload: EventPayload<E>) => void;
  /** Milliseconds a tool call may run (unless the tool sets its own) before it ends with `tool-timeout`. */
  readonly toolTimeoutMs?: number | undefined;
  /** Cap on a result sent to the model, in bytes (default 64 KB); longer ones are cut with a marker. */
  readonly maxResultBytes?: number | undefined;
  /** Cap on the invalid arguments echoed in a re-ask, in tokens (the output's `maxFeedbackTokens`). Default 4000. */
  readonly maxEchoTokens?: number | undefined;
  /** Wraps each tool's `execute` (the agent's call wrappers), when there are any. */
  readonly wrapCall?: CallWrapper | undefined;
  /** Replaces the providers' secrets in an error message (see `ModelProviderV1.redact`). */
  readonly redact?: ((text: string) => string) | undefined;
  /** Makes a re-ask model call with the kept context plus these ephemeral messages. */
  readonly reask: (ephemeral: readonly Message[], toolChoice: ToolChoice, toolCallId: string) => Promise<ModelResponse>;
}

type Settled = Omit<ToolCallRecord, 'step' | 'durationMs'>;

/** What a tool's `execute` receives; its signal is made on first read when the run has none. */
class RunToolContext implements ToolContext {
  readonly runId: string;
  readonly step: number;

  private linked: AbortSignal | undefined;

  constructor(
    private readonly env: ToolRunEnvironment,
    readonly toolCallId: string,
    /** Aborted when this call times out. */
    private readonly timeoutSignal?: AbortSignal,
  ) {
    this.runId = env.runId;
    this.step = env.step;
  }

  get signal(): AbortSignal {
    if (!this.timeoutSignal) return this.env.toolSignal();
    // Aborted by the run or by this call's timeout, whichever comes first.
    return (this.linked ??= this.env.abortSignal ? AbortSignal.any([this.env.abortSignal, this.timeoutSignal]) : this.timeoutSignal);
  }
}

/** The events a tool call reports. */
type ToolEventName = 'tool.start' | 'tool.end' | 'tool.validation' | 'tool.retry';

/**
 * Runs one logical tool call: guards, argument validation with bounded ephemeral re-asks, then
 * the tool. Every failure the model can act on becomes an error result (never a crash); only an
 * abort rejects.
 */
export async function runToolCall(env: ToolRunEnvironment, call: ToolCallPart): Promise<ToolCallRecord> {
  const started = performance.now();
  if (env.listens('tool.start')) env.emit('tool.start', { toolCallId: call.id, tool: call.name });
  const settled = await settle(env, call);
  const durationMs = performance.now() - started;
  if (env.listens('tool.end')) env.emit('tool.end', {
    toolCallId: call.id,
    tool: call.name,
    isError: settled.isError,
    ...(settled.errorCode === undefined ? {} : { errorCode: settled.errorCode }),
    durationMs,
  });
  const record: { -readonly [K in keyof ToolCallRecord]: ToolCallRecord[K] } = {
    id: settled.id,
    name: settled.name,
    arguments: settled.arguments,
    output: settled.output,
    isError: settled.isError,
    step: env.step,
    durationMs,
  };
  if (settled.errorCode !== undefined) record.errorCode = settled.errorCode;
  if (settled.coercions !== undefined && settled.coercions.length > 0) record.coercions = settled.coercions;
  return record;
}

async function settle(env: ToolRunEnvironment, call: ToolCallPart): Promise<Settled> {
  const failed = (code: string, message: string, args: unknown): Settled => ({
    id: call.id,
    name: call.name,
    arguments: args,
    // Whatever a thrown value said, it reaches the model, the result and memory only redacted.
    output: errorOutput(code, env.redact ? env.redact(message) : message),
    isError: true,
    errorCode: code,
  });
  const tool = env.tools.get(call.name);
  if (!tool) {
    const known = [...env.tools.keys()].join(', ') || 'none';
    return failed('unknown-tool', `there is no tool named ${quote(call.name)}; available tools: ${known}`, call.arguments);
  }
  const guards = tool.guards.length === 0 ? env.guards : [...env.guards, ...tool.guards];
  const rejected = (rejection: GuardRejection, args: unknown) => failed(rejection.code, rejection.message, args);

  const firstRejection = runGuards(guards, call.name, call.arguments);
  if (firstRejection) return rejected(firstRejection, call.arguments);

  let args = call.arguments;
  let input: unknown = args;
  let coercions: readonly Coercion[] | undefined;
  if (tool.validate) {
    const validated = await validateWithReasks(env, tool, call, guards);
    if (validated.status === 'validator-error') return failed('validator-error', `the tool's input validator failed: ${validated.message}`, validated.args);
    if (validated.status !== 'valid') {
      const retryCount = validated.retryCount;
      if (env.listens('tool.validation')) env.emit('tool.validation', { toolCallId: call.id, tool: call.name, outcome: validated.status, retryCount });
      if (validated.status === 'guard-rejected-on-retry') return rejected(validated.rejection as GuardRejection, validated.args);
      return failed('validation-failed', validationMessage(validated.status, retryCount, validated.issues), validated.args);
    }
    if (env.listens('tool.validation')) {
      env.emit('tool.validation', { toolCallId: call.id, tool: call.name, outcome: validated.retryCount === 0 ? 'no-retry' : 'success', retryCount: validated.retryCount });
    }
    args = validated.args;
    input = validated.value;
    coercions = validated.coercions;
  }

  const timeoutMs = tool.timeoutMs ?? env.toolTimeoutMs;
  const timeout = timeoutMs === undefined ? undefined : new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const execute = () => tool.execute(input, new RunToolContext(env, call.id, timeout?.signal));
    const { wrapCall } = env;
    const running = Promise.resolve().then(wrapCall ? () => wrapCall({ kind: 'tool', runId: env.runId, step: env.step, toolCallId: call.id, tool: call.name }, execute) : execute);
    const output = await raceSignal(
      timeout === undefined
        ? running
        : Promise.race([running, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(resolve, timeoutMs, TIMED_OUT)))]),
      env.abortSignal,
    );
    if (output === TIMED_OUT) {
      timeout?.abort(new Error(`tool call timed out after ${timeoutMs} ms`));
      return failed('tool-timeout', `the tool did not finish within ${timeoutMs} ms and was stopped`, args);
    }
    const serialized = serializeToolResult(output, env.maxResultBytes);
    if (!serialized.ok) return failed('tool-result-invalid', serialized.message, args);
    return { id: call.id, name: call.name, arguments: args, output: serialized.text, isError: false, ...(coercions ? { coercions } : {}) };
  } catch (error) {
    if (env.abortSignal?.aborted) throw AbortedError.fromSignal(env.abortSignal);
    if (AbortedError.isInstance(error)) throw error;
    return failed('tool-error', escapeControl(reduceError(error).message), args);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** What a timed-out tool call's race resolves with. */
const TIMED_OUT: unique symbol = Symbol('timed out');

type Validated =
  | { readonly status: 'valid'; readonly args: unknown; readonly value: unknown; readonly retryCount: number; readonly coercions?: readonly Coercion[] }
  | {
      readonly status: Exclude<ToolValidationOutcome, 'no-retry' | 'success'>;
      readonly args: unknown;
      readonly retryCount: number;
      readonly issues: readonly ValidationIssue[];
      readonly rejection?: GuardRejection;
    }
  | { readonly status: 'validator-error'; readonly args: unknown; readonly retryCount: number; readonly issues: readonly ValidationIssue[]; readonly message: string };

async function validateWithReasks(env: ToolRunEnvironment, tool: AnyTool, call: ToolCallPart, guards: readonly ToolGuard[]): Promise<Validated> {
  const budget = tool.retries ?? env.toolRetries;
  let args = call.arguments;
  let previous: { args: string; signature: string } | undefined;
  for (let retryCount = 0; ; retryCount++) {
    let result: Awaited<ReturnType<AnyTool['validator']['validate']>>;
    try {
      // An async validator that never settles cannot hold the run.
      result = await raceSignal(Promise.resolve(tool.validator.validate(args)), env.abortSignal);
    } catch (error) {
      if (env.abortSignal?.aborted || AbortedError.isInstance(error)) throw env.abortSignal ? AbortedError.fromSignal(env.abortSignal) : error;
      return { status: 'validator-error', args, retryCount, issues: [], message: reduceError(error).message };
    }
    if (result.ok) return { status: 'valid', args, value: result.value, retryCount };
    if (tool.coerce) {
      // A unique, lossless fix the schema allows saves the re-ask; the tool runs with the coerced arguments.
      const coerced = coerceToSchema(args, tool.validator.jsonSchema);
      if (coerced.coercions.length > 0) {
        let again: Awaited<ReturnType<AnyTool['validator']['validate']>>;
        try {
          again = await tool.validator.validate(coerced.value);
        } catch (error) {
          return { status: 'validator-error', args, retryCount, issues: [], message: error instanceof Error ? error.message : String(error) };
        }
        if (again.ok) return { status: 'valid', args: coerced.value, value: again.value, retryCount, coercions: coerced.coercions };
      }
    }
    result = { ok: false, issues: withShapes(result.issues, tool.validator.jsonSchema) };
    const current = { args: stableStringify(args), signature: issueSignature(result.issues) };
    if (previous && (previous.args === current.args || previous.signature === current.signature)) {
      return { status: 'redundant', args, retryCount, issues: result.issues };
    }
    if (retryCount >= budget) return { status: 'exhausted', args, retryCount, issues: result.issues };
    previous = current;

    const feedback = formatFeedback({
      stage: 'schema-validate',
      issues: result.issues,
      subject: `The arguments of your call to '${call.name}'`,
      instruction: `Call '${call.name}' again with corrected arguments. Fix every problem listed; keep everything else as it was.`,
    });
    env.emit('tool.retry', { toolCallId: call.id, tool: call.name, retry: retryCount + 1, feedback });
    const response = await env.reask(
      [
        { role: 'assistant', content: [{ ...call, arguments: echoArguments(args, env.maxEchoTokens ?? DEFAULT_ECHO_TOKENS) }], ephemeral: true },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: errorOutput('validation-failed', feedback), isError: true }], ephemeral: true },
      ],
      { type: 'tool', name: call.name },
      call.id,
    );
    const corrected = response.content.find((part): part is ToolCallPart => part.type === 'tool-call' && part.name === call.name);
    if (!corrected) return { status: 'gave-up', args, retryCount: retryCount + 1, issues: result.issues };
    args = corrected.arguments;
    const rejection = runGuards(guards, call.name, args);
    if (rejection) return { status: 'guard-rejected-on-retry', args, retryCount: retryCount + 1, issues: [], rejection };
  }
}

/** Default cap on echoed arguments, in tokens (as the output's `maxFeedbackTokens`). */
const DEFAULT_ECHO_TOKENS = 4000;

/**
 * The invalid arguments as echoed to the model in a re-ask: as they are when small, else their
 * JSON cut to the echo budget around the truncation marker (sent as raw text), so a 5 MB argument
 * never goes back out in full.
 */
function echoArguments(args: unknown, maxTokens: number): unknown {
  const maxChars = maxTokens * CHARS_PER_TOKEN;
  if (typeof args === 'string') return args.length <= maxChars ? args : truncateEcho(args, maxTokens);
  let json: string | undefined;
  try {
    json = JSON.stringify(args);
  } catch {
    return '[arguments that could not be serialised]';
  }
  if (json === undefined || json.length <= maxChars) return args;
  return truncateEcho(json, maxTokens);
}

function validationMessage(outcome: ToolValidationOutcome, retryCount: number, issues: readonly ValidationIssue[]): string {
  const reason =
    outcome === 'redundant'
      ? 'the corrected call repeated the same problems'
      : outcome === 'gave-up'
        ? 'the model did not call the tool again'
        : `still invalid after ${retryCount} correction${retryCount === 1 ? '' : 's'}`;
  const lines = formatFeedback({ stage: 'schema-validate', issues, subject: 'The arguments' }).split('\n').slice(0, -1);
  return `the arguments did not match the tool's input schema (${reason}).\n${lines.join('\n')}`;
}
