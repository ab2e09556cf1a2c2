import { canonicalHash, isPromiseLike, loopArgumentsHash, loopResultHash, loopResultPending, type RunStepView, type RuleRunView, type ToolCallView, type TurnView } from '@keel/reliability/internal';
import type { TokenUsage } from '@keel/reliability';
import type { StepRecord } from '../contracts/run-result';
import type { ModelResponse, ToolCallPart } from '@keel/provider';
import { checkArguments } from '../tools/check-arguments';
import type { AnyTool } from '../tools/tool';
import type { ToolCallRecord } from '../tools/tool-result';

/** The start of a result kept for feedback that names it, in characters. */
const PREVIEW_CHARS = 200;

/** Each record's view, made once: records are kept as they are for the rest of the run. */
const views = new WeakMap<ToolCallRecord, ToolCallView>();

function callView(record: ToolCallRecord): ToolCallView {
  let view = views.get(record);
  if (view === undefined) {
    view = Object.freeze({
      id: record.toolCallId,
      name: record.toolName,
      argumentsHash: loopArgumentsHash(record.arguments),
      resultHash: loopResultHash(record.output),
      failed: record.isError,
      pending: !record.isError && loopResultPending(record.output),
      resultPreview: record.output.slice(0, PREVIEW_CHARS),
    });
    views.set(record, view);
  }
  return view;
}

/**
 * The run so far as rules see it (`scope.run`): each finished step with its tool calls (argument
 * and result hashes, failure), the turn being judged when there is one, the usage so far, and the
 * loop nudges the run already sent.
 */
export function runViewOf(steps: readonly StepRecord[], toolCalls: readonly ToolCallRecord[], usage: TokenUsage, turn?: TurnView, loopNudges = 0): RuleRunView {
  const byStep = new Map<number, ToolCallView[]>();
  for (const record of toolCalls) {
    const list = byStep.get(record.step);
    if (list) list.push(callView(record));
    else byStep.set(record.step, [callView(record)]);
  }
  const stepViews = steps.map((step): RunStepView => {
    const calls = byStep.get(step.step) ?? [];
    return step.text.length > 0 ? { step: step.step, toolCalls: calls, replyHash: canonicalHash(step.text) } : { step: step.step, toolCalls: calls };
  });
  const view: RuleRunView = turn === undefined ? { steps: stepViews, usage } : { steps: stepViews, turn, usage };
  return loopNudges > 0 ? { ...view, loopNudges } : view;
}

const NO_GUARDS: readonly never[] = Object.freeze([]);

/**
 * The arguments a proposed call would run with: after the tool's validation and coercion when its
 * validator runs no code of the user's (JSON Schema: so `{ n: "5" }` for a number reads as the
 * `{ n: 5 }` that ran before), as the model wrote them otherwise (an unknown tool, invalid
 * arguments, a Standard Schema or `{ parse }` validator, whose code runs once per call, never
 * again for a rule).
 */
function argumentsToRun(part: ToolCallPart, tools: ReadonlyMap<string, AnyTool> | undefined): unknown {
  const tool = tools?.get(part.name);
  if (tool === undefined || !tool.validate || tool.validator.pure !== true) return part.arguments;
  const check = checkArguments(tool, NO_GUARDS, part);
  return !isPromiseLike(check) && check.status === 'valid' ? check.value : part.arguments;
}

/**
 * The turn a response asks for: its tool calls (name and the hash of the arguments they would run
 * with, compared with what finished steps ran) and its text's hash.
 */
export function turnViewOf(response: Pick<ModelResponse, 'content' | 'text'>, tools?: ReadonlyMap<string, AnyTool>): TurnView {
  const toolCalls = [];
  for (const part of response.content) if (part.type === 'tool-call') toolCalls.push({ name: part.name, argumentsHash: loopArgumentsHash(argumentsToRun(part, tools)) });
  return response.text.length > 0 ? { toolCalls, replyHash: canonicalHash(response.text) } : { toolCalls };
}
