import { AbortedError, formatFeedback, quote, type ValidationIssue } from '@keel/reliability';
import { TOOL_SEARCH_NAME } from './search/tool-search';
import { canonicalHash, escapeControl, reduceError, raceSignal } from '@keel/reliability/internal';
import type { CallWrapper } from '../shared/call-wrapper';
import type { BuiltPayload, EventPayload, ToolValidationOutcome } from '../events/agent-events';
import type { ToolCallPart } from '@keel/provider';
import { type ArgumentsCheck, checkArguments } from './check-arguments';
import type { ToolGuard } from './guard';
import { PARENT_RUN, type ParentRun } from './parent-run';
import { NestedSuspension } from './nested-suspension';
import type { ApprovalDecision, NestedApproval, PendingApproval } from './pending-approval';
import type { AnyTool, ToolContext } from './tool';
import { serializeToolResult } from './serialize-tool-result';
import { errorOutput, type ToolCallRecord } from './tool-result';

/** What running a tool call needs from the run. */
export interface ToolRunEnvironment {
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** Deferred tools (found with `tool_search`): an unknown tool's feedback names the search instead of listing them. */
  readonly deferred?: ReadonlySet<string> | undefined;
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
  /** Emits a tool event built whole (see `RunContext.emitBuilt`), when `listens(event)`. */
  readonly emitBuilt: <E extends ToolEventName>(event: E, payload: BuiltPayload<E>) => void;
  /** Milliseconds a tool call may run (unless the tool sets its own) before it ends with `tool-timeout`. */
  readonly toolTimeoutMs?: number | undefined;
  /** Cap on a result sent to the model, in bytes (default 64 KB); longer ones are cut with a marker. */
  readonly maxResultBytes?: number | undefined;
  /** Wraps each tool's `execute` (the agent's call wrappers), when there are any. */
  readonly wrapCall?: CallWrapper | undefined;
  /** Replaces the providers' secrets in an error message (see `ModelProviderV1.redact`). */
  readonly redact?: ((text: string) => string) | undefined;
  /**
   * Re-asks the model for a tool call's arguments through the run's attempt loop (tool forced,
   * feedback ephemeral, bounded by the tool's budget), starting from the failed check of `call`'s.
   */
  readonly reAsk: (tool: AnyTool, guards: readonly ToolGuard[], call: ToolCallPart, first: Extract<ArgumentsCheck, { status: 'invalid' }>) => Promise<ReAskResult>;
  /** The run, as agents called as tools see it through their context (see {@link ParentRun}). */
  readonly parent?: Omit<ParentRun, 'toolCallId'> | undefined;
  /**
   * A durable run's record of its calls: `intent` is written (and awaited) before `execute` runs,
   * `outcome` once the call settled, so a crash between the two is seen as an unknown outcome.
   */
  readonly journal?: ToolCallJournal | undefined;
}

/** Where a durable run records each tool call: its intent before it runs, its record after. */
export interface ToolCallJournal {
  intent(intent: Pick<ToolCallRecord, 'toolCallId' | 'toolName' | 'arguments'>): Promise<void>;
  outcome(record: ToolCallRecord): Promise<void>;
}

type Settled = Omit<ToolCallRecord, 'step' | 'durationMs'>;

/** A call left waiting for approval, with the validated arguments it would run with. */
interface Waiting {
  readonly waiting: true;
  readonly args: unknown;
  /** The call runs an agent that suspended inside it. */
  readonly nested?: NestedApproval;
}

/** How a tool call's re-asks ended: the last check, how many re-asks were made, and the outcome. */
export interface ReAskResult {
  readonly check: ArgumentsCheck;
  readonly reAsks: number;
  readonly outcome: Exclude<ToolValidationOutcome, 'valid'>;
}

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
    /** The decision that resumes an agent suspended inside this call. */
    private readonly decision?: ApprovalDecision,
  ) {
    this.runId = env.runId;
    this.step = env.step;
  }

  /** The calling run, for an agent used as a tool: made only when such an agent reads it. */
  get [PARENT_RUN](): ParentRun | undefined {
    const parent = this.env.parent;
    if (!parent) return undefined;
    const decision = this.decision;
    if (decision?.nested === undefined) return { ...parent, toolCallId: this.toolCallId };
    const resume = { state: decision.nested, approved: decision.type === 'approved', reason: decision.type === 'rejected' ? decision.reason : undefined };
    return { ...parent, toolCallId: this.toolCallId, resume };
  }

  get idempotencyKey(): string {
    return idempotencyKeyOf(this.runId, this.toolCallId);
  }

  get signal(): AbortSignal {
    if (!this.timeoutSignal) return this.env.toolSignal();
    // Aborted by the run or by this call's timeout, whichever comes first.
    return (this.linked ??= this.env.abortSignal ? AbortSignal.any([this.env.abortSignal, this.timeoutSignal]) : this.timeoutSignal);
  }
}

/** Longest idempotency key given as it is; longer ones are hashed (payment APIs take up to 255 characters). */
const MAX_IDEMPOTENCY_KEY = 200;

/** The idempotency key of a logical tool call: its run id and tool call id, hashed when too long. */
export function idempotencyKeyOf(runId: string, toolCallId: string): string {
  const key = `${runId}:${toolCallId}`;
  return key.length <= MAX_IDEMPOTENCY_KEY ? key : `keel-${canonicalHash(runId)}-${canonicalHash(toolCallId)}`;
}

/** The events a tool call reports. */
type ToolEventName = 'tool.start' | 'tool.end' | 'tool.validation';

/**
 * Runs one logical tool call: the arguments checked (exact parse, schema, coercion, guards on the
 * value that runs), re-asked through the run's attempt loop when invalid, then the tool. Every failure the model can act on becomes an error result (never a crash); only an
 * abort rejects. A tool whose `needsApproval` says so is not run: the call comes back pending
 * (its validated arguments). With a `decision` (a resumed run), an approved call is checked again
 * (schema and guards, never re-asked) and run without asking `needsApproval`; a rejected one ends
 * with an error result carrying the reason, unchecked and unrun.
 */
export async function runToolCall(env: ToolRunEnvironment, call: ToolCallPart, decision?: ApprovalDecision): Promise<ToolCallRecord | PendingApproval> {
  const started = performance.now();
  if (env.listens('tool.start')) env.emitBuilt('tool.start', { runId: env.runId, step: env.step, timestamp: Date.now(), toolCallId: call.id, toolName: call.name });
  const settled = await settle(env, call, decision);
  if ('waiting' in settled) {
    // Nothing ran: the run suspends with the call (`run.suspended` names it), and the call starts
    // again, with its own `tool.start`, when the run resumes.
    return settled.nested ? { toolCallId: call.id, toolName: call.name, arguments: settled.args, nested: settled.nested } : { toolCallId: call.id, toolName: call.name, arguments: settled.args };
  }
  const durationMs = performance.now() - started;
  if (env.listens('tool.end')) {
    const payload: BuiltPayload<'tool.end'> = { runId: env.runId, step: env.step, timestamp: Date.now(), toolCallId: call.id, toolName: call.name, isError: settled.isError, durationMs };
    if (settled.errorCode !== undefined) payload.errorCode = settled.errorCode;
    env.emitBuilt('tool.end', payload);
  }
  const record: { -readonly [K in keyof ToolCallRecord]: ToolCallRecord[K] } = {
    toolCallId: settled.toolCallId,
    toolName: settled.toolName,
    arguments: settled.arguments,
    output: settled.output,
    isError: settled.isError,
    step: env.step,
    durationMs,
  };
  if (settled.errorCode !== undefined) record.errorCode = settled.errorCode;
  if (settled.coercions !== undefined && settled.coercions.length > 0) record.coercions = settled.coercions;
  if (env.journal) await env.journal.outcome(record);
  return record;
}

async function settle(env: ToolRunEnvironment, call: ToolCallPart, decision: ApprovalDecision | undefined): Promise<Settled | Waiting> {
  const failed = (code: string, message: string, args: unknown): Settled => ({
    toolCallId: call.id,
    toolName: call.name,
    arguments: args,
    // Whatever a thrown value said, it reaches the model, the result and memory only redacted.
    output: errorOutput(code, env.redact ? env.redact(message) : message),
    isError: true,
    errorCode: code,
  });
  // A rejection of an agent's call that waits inside this one goes to that agent (the call resumes it).
  if (decision?.type === 'rejected' && decision.nested === undefined) {
    const reason = decision.reason === undefined ? 'no reason was given' : `the reason given: ${quote(decision.reason)}`;
    return failed('approval-rejected', `this call was not approved, so the tool did not run (${reason})`, call.arguments);
  }
  const tool = env.tools.get(call.name);
  if (!tool) {
    const deferred = env.deferred;
    const known = [...env.tools.keys()].filter((name) => !deferred?.has(name)).join(', ') || 'none';
    const search = deferred === undefined ? '' : `; ${TOOL_SEARCH_NAME} finds ${deferred.size} more by keywords (call it first, then the tool it finds)`;
    return failed('unknown-tool', `there is no tool named ${quote(call.name)}; available tools: ${known}${search}`, call.arguments);
  }
  const guards = tool.guards.length === 0 ? env.guards : [...env.guards, ...tool.guards];
  const validation = (outcome: ToolValidationOutcome, retryCount: number) => {
    if (env.listens('tool.validation')) env.emitBuilt('tool.validation', { runId: env.runId, step: env.step, timestamp: Date.now(), toolCallId: call.id, toolName: call.name, outcome, retryCount });
  };
  // An async validator that never settles cannot hold the run.
  const first = await raceSignal(Promise.resolve(checkArguments(tool, guards, call)), env.abortSignal);
  let checked: ArgumentsCheck = first;
  let retryCount = 0;
  // An approved call is the call that was approved: never replaced by a re-ask.
  if (first.status === 'invalid' && decision === undefined) {
    const reAsked = await env.reAsk(tool, guards, call, first);
    checked = reAsked.check;
    retryCount = reAsked.reAsks;
    if (checked.status === 'valid') validation('corrected', retryCount);
    else validation(reAsked.outcome, retryCount);
  } else if (first.status === 'valid') validation('valid', 0);
  switch (checked.status) {
    case 'valid': {
      if (decision === undefined && tool.needsApproval) {
        let needed: boolean;
        try {
          const asked = tool.needsApproval(checked.value, new RunToolContext(env, call.id));
          needed = (await raceSignal(Promise.resolve(asked), env.abortSignal)) !== false;
        } catch (error) {
          if (env.abortSignal?.aborted) throw AbortedError.fromSignal(env.abortSignal);
          if (AbortedError.isInstance(error)) throw error;
          return failed('approval-error', `deciding whether the call needs approval failed: ${escapeControl(reduceError(error).message)}`, checked.args);
        }
        if (needed) return { waiting: true, args: checked.args };
      }
      return execute(env, tool, call, checked, failed, decision);
    }
    case 'rejected':
      return failed(checked.rejection.code, checked.rejection.message, checked.args);
    case 'validator-error':
      return failed('validator-error', `the tool's input validator failed: ${checked.message}`, checked.args);
    case 'invalid':
      return failed('validation-failed', validationMessage(checked.failure.issues, retryCount), checked.args);
  }
}

/** Runs the tool with the checked value, bounded by its timeout and the run's signal. */
async function execute(env: ToolRunEnvironment, tool: AnyTool, call: ToolCallPart, checked: Extract<ArgumentsCheck, { status: 'valid' }>, failed: (code: string, message: string, args: unknown) => Settled, decision?: ApprovalDecision): Promise<Settled | Waiting> {
  const { args, coercions } = checked;
  const timeoutMs = tool.timeoutMs ?? env.toolTimeoutMs;
  const timeout = timeoutMs === undefined ? undefined : new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A durable run records the call before it runs: a crash from here on leaves its outcome unknown.
  if (env.journal) await env.journal.intent({ toolCallId: call.id, toolName: call.name, arguments: args });
  try {
    const run = () => tool.execute(checked.value, new RunToolContext(env, call.id, timeout?.signal, decision));
    const { wrapCall } = env;
    const running = Promise.resolve().then(wrapCall ? () => wrapCall({ type: 'tool', runId: env.runId, step: env.step, toolCallId: call.id, toolName: call.name }, run) : run);
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
    return { toolCallId: call.id, toolName: call.name, arguments: args, output: serialized.text, isError: false, ...(coercions.length > 0 ? { coercions } : {}) };
  } catch (error) {
    if (env.abortSignal?.aborted) throw AbortedError.fromSignal(env.abortSignal);
    if (AbortedError.isInstance(error)) throw error;
    // An agent called as a tool suspended for approvals: the call waits with it.
    const nested = NestedSuspension.nestedOf(error);
    if (nested) return { waiting: true, args, nested };
    return failed('tool-error', escapeControl(reduceError(error).message), args);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** What a timed-out tool call's race resolves with. */
const TIMED_OUT: unique symbol = Symbol('timed out');

function validationMessage(issues: readonly ValidationIssue[], retryCount: number): string {
  const reason = retryCount === 0 ? 'no correction was asked for' : `still invalid after ${retryCount} correction${retryCount === 1 ? '' : 's'}`;
  const lines = formatFeedback({ stage: 'schema-validate', issues, subject: 'The arguments' }).split('\n').slice(0, -1);
  return `the arguments did not match the tool's input schema (${reason}).\n${lines.join('\n')}`;
}
