import { Type } from '@sinclair/typebox';
import { generateText, jsonSchema, type JSONSchema7, Output, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Ajv } from 'ajv';
import { compare, minorGc, type Timing, us } from '../measure';
import { bareRun, METRIC_EVENTS, metricsAgent, RefundSchema } from '../overhead';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

// The same tool and answer as overhead.ts (its input schema and tool body are module-private there).
const LookupInput = Type.Object({ orderId: Type.String() });
const lookup = async ({ orderId }: { orderId: string }) => ({ orderId, paid: 50, status: 'damaged' });

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const toolTurn: GenerateResult = {
  content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup_order', input: '{"orderId":"A-1182"}' }],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage,
  warnings: [],
};
const finalTurn: GenerateResult = {
  content: [{ type: 'text', text: '{"action":"refund","amount":50}' }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage,
  warnings: [],
};

/**
 * The AI SDK v6 doing the same work: `generateText` with one tool (arguments validated by a
 * compiled ajv, as Keel does) and structured output, on `MockLanguageModelV3` answering with zero
 * latency: the tool call first, then the final JSON. The mock records every call; its list is
 * cleared on each call so that recording costs neither time nor heap over thousands of runs.
 */
export function aiSdkRun() {
  const ajv = new Ajv({ allErrors: true });
  const validateArgs = ajv.compile(LookupInput);
  const validateOutput = ajv.compile(RefundSchema);
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async (options) => {
      model.doGenerateCalls.length = 0;
      return options.prompt.filter((message) => message.role !== 'system').length <= 1 ? toolTurn : finalTurn;
    },
  });
  const lookupTool = tool({
    description: 'Look up an order',
    inputSchema: jsonSchema<{ orderId: string }>(LookupInput as JSONSchema7, {
      validate: (value) => (validateArgs(value) ? { success: true, value: value as { orderId: string } } : { success: false, error: new Error('invalid arguments') }),
    }),
    execute: lookup,
  });
  const schema = jsonSchema<{ action: 'refund' | 'reject'; amount: number }>(RefundSchema as JSONSchema7, {
    validate: (value) =>
      validateOutput(value) ? { success: true, value: value as { action: 'refund' | 'reject'; amount: number } } : { success: false, error: new Error('invalid output') },
  });
  return async (input: string) => {
    const result = await generateText({
      model,
      prompt: input,
      tools: { lookup_order: lookupTool },
      stopWhen: stepCountIs(3),
      output: Output.object({ schema }),
    });
    return result.output;
  };
}

/** Per-run timings of the three contenders and the derived overheads. */
export interface AiSdkOverheadResult {
  readonly keel: Timing;
  readonly aiSdk: Timing;
  readonly bare: Timing;
  /** Keel / bare, median over median. */
  readonly keelOverBare: number;
  /** Keel / AI SDK, median over median. */
  readonly keelOverAiSdk: number;
  /** Median per-run cost above the bare baseline, in µs. */
  readonly keelOverheadUs: number;
  readonly aiSdkOverheadUs: number;
  /** Target: Keel's overhead over bare at most half the AI SDK's. */
  readonly targetMet: boolean;
  readonly markdown: string;
}

const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const range = (timing: Timing) => `${us(timing.minUs)} – ${us(timing.maxUs)}`;

/**
 * Keel `agent.runTyped`, AI SDK v6 `generateText` and the bare baseline doing the same run (one
 * tool step, then a validated final JSON answer) side by side in one `compare()`.
 */
export async function measureAiSdkOverhead(options: { rounds?: number; batch?: number; warmup?: number } = {}): Promise<AiSdkOverheadResult> {
  // Events are part of the product: Keel runs with a metrics listener attached.
  const agent = metricsAgent();
  const aiSdk = aiSdkRun();
  const bare = bareRun();
  const prompt = 'Order A-1182 arrived broken. Refund?';
  // Every contender must produce the same validated value before it is timed.
  const expected = JSON.stringify({ action: 'refund', amount: 50 });
  for (const [name, value] of [
    ['keel', await agent.runTyped(prompt)],
    ['ai-sdk', await aiSdk(prompt)],
    ['bare', await bare(prompt)],
  ] as const) {
    if (JSON.stringify(value) !== expected) throw new Error(`${name} returned ${JSON.stringify(value)}, expected ${expected}`);
  }
  const timings = await compare(
    [
      { name: 'keel', run: () => agent.runTyped(prompt) },
      { name: 'ai-sdk', run: () => aiSdk(prompt) },
      { name: 'bare', run: () => bare(prompt) },
    ],
    // A minor GC before each batch: no contender pays for the garbage of the batch before it.
    { rounds: options.rounds ?? 30, batch: options.batch ?? 100, warmup: options.warmup ?? 1000, settle: minorGc },
  );
  const keel = timings.get('keel') as Timing;
  const aiTiming = timings.get('ai-sdk') as Timing;
  const bareTiming = timings.get('bare') as Timing;
  const keelOverheadUs = keel.medianUs - bareTiming.medianUs;
  const aiSdkOverheadUs = aiTiming.medianUs - bareTiming.medianUs;
  const keelOverBare = keel.medianUs / bareTiming.medianUs;
  const keelOverAiSdk = keel.medianUs / aiTiming.medianUs;
  const targetMet = keelOverheadUs <= aiSdkOverheadUs / 2;

  const markdown = `## Keel against the Vercel AI SDK (v6)

The same run for three contenders in one side-by-side comparison: one tool step (arguments
validated), then a final JSON answer validated against the schema. Keel is \`agent.runTyped\` with
a metrics listener (a counter) on ${METRIC_EVENTS.length} events, since events are part of the product; the
AI SDK is \`generateText\` with \`tool()\` + \`jsonSchema()\` (validated by a compiled ajv, as Keel
validates), \`stopWhen: stepCountIs(3)\` and \`output: Output.object({ schema })\` on
\`MockLanguageModelV3\`; bare is the same work by hand. Both models answer in-process with zero latency.

| contender | median per run | min – max |
| --- | --- | --- |
| Keel \`runTyped\` | ${us(keel.medianUs)} | ${range(keel)} |
| AI SDK \`generateText\` | ${us(aiTiming.medianUs)} | ${range(aiTiming)} |
| bare baseline | ${us(bareTiming.medianUs)} | ${range(bareTiming)} |

- Keel / bare: **${keelOverBare.toFixed(2)}x**; Keel / AI SDK: **${keelOverAiSdk.toFixed(2)}x**.
- Overhead over bare per run: Keel ${us(keelOverheadUs)}, AI SDK ${us(aiSdkOverheadUs)}.
- Target, Keel's overhead at most half the AI SDK's (≤ ${us(aiSdkOverheadUs / 2)}): ${verdict(targetMet)}.
`;
  return { keel, aiSdk: aiTiming, bare: bareTiming, keelOverBare, keelOverAiSdk, keelOverheadUs, aiSdkOverheadUs, targetMet, markdown };
}
