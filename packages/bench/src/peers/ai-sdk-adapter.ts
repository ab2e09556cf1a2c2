import { fromAISDK } from '@keel/ai-sdk';
import type { ModelRequest } from '@keel/core';
import type { MockLanguageModelV3 } from 'ai/test';
import { compare, minorGc, pairedRatio, type Timing, us } from '../measure';

// The spec's types (LanguageModelV3 and its parts), read off the AI SDK's mock model.
type LanguageModelV3 = Pick<MockLanguageModelV3, 'specificationVersion' | 'provider' | 'modelId' | 'supportedUrls' | 'doGenerate' | 'doStream'>;
type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type LanguageModelV3StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** What {@link measureAiSdkAdapter} returns. */
export interface AiSdkAdapterFigures {
  readonly direct: Timing;
  readonly adapter: Timing;
  readonly directStream: Timing;
  readonly adapterStream: Timing;
  /** Adapter minus direct, per call (medians). */
  readonly overheadUs: number;
  readonly streamOverheadUs: number;
  readonly markdown: string;
}

const usage = { inputTokens: { total: 1200, noCache: 200, cacheRead: 1000, cacheWrite: 0 }, outputTokens: { total: 40, text: 40, reasoning: 0 } };
const result: LanguageModelV3GenerateResult = {
  content: [
    { type: 'text', text: 'Looking up both orders.' },
    { type: 'tool-call', toolCallId: 'call_2', toolName: 'lookup_order', input: '{"orderId":"A-1183"}' },
    { type: 'tool-call', toolCallId: 'call_3', toolName: 'lookup_order', input: '{"orderId":"A-1184"}' },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage,
  warnings: [],
  response: { id: 'resp_1', modelId: 'bench' },
};
/** The same answer streamed: 20 text deltas, then a tool call in 4 argument deltas. */
const streamParts: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'resp_1', modelId: 'bench' },
  { type: 'text-start', id: 't' },
  ...Array.from({ length: 20 }, (_, index): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta: `word${index} ` })),
  { type: 'text-end', id: 't' },
  { type: 'tool-input-start', id: 'call_2', toolName: 'lookup_order' },
  ...['{"order', 'Id":', '"A-11', '83"}'].map((delta): LanguageModelV3StreamPart => ({ type: 'tool-input-delta', id: 'call_2', delta })),
  { type: 'tool-input-end', id: 'call_2' },
  { type: 'tool-call', toolCallId: 'call_2', toolName: 'lookup_order', input: '{"orderId":"A-1183"}' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
];

/** A zero-latency AI SDK model: a fixed answer, nothing recorded. */
const model: LanguageModelV3 = {
  specificationVersion: 'v3',
  provider: 'bench.chat',
  modelId: 'bench',
  supportedUrls: {},
  doGenerate: async () => result,
  doStream: async () => ({
    stream: new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of streamParts) controller.enqueue(part);
        controller.close();
      },
    }),
  }),
};

const orderSchema = { type: 'object', properties: { orderId: { type: 'string', pattern: '^A-\\d+$' } }, required: ['orderId'], additionalProperties: false };
const refundSchema = { type: 'object', properties: { orderId: { type: 'string' }, amount: { type: 'number' } }, required: ['orderId', 'amount'] };

/** A mid-run request: system prompt, a tool exchange, two tools. */
const request: ModelRequest = {
  model: 'bench',
  system: 'You handle refunds. Look orders up before deciding.',
  messages: [
    { role: 'user', content: 'Orders A-1182, A-1183 and A-1184 arrived broken. Refund what was paid.' },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'lookup_order', arguments: { orderId: 'A-1182' }, argumentsText: '{"orderId":"A-1182"}' }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'lookup_order', output: '{"orderId":"A-1182","paid":50}', isError: false }] },
  ],
  tools: [
    { name: 'lookup_order', description: 'Look up an order', inputSchema: orderSchema },
    { name: 'refund', description: 'Refund an order', inputSchema: refundSchema },
  ],
  toolChoice: { type: 'auto' },
  maxTokens: 1024,
};

/** The same call as a caller of the AI SDK model writes it, built once: the direct baseline does no mapping. */
const directOptions: LanguageModelV3CallOptions = {
  prompt: [
    { role: 'system', content: 'You handle refunds. Look orders up before deciding.' },
    { role: 'user', content: [{ type: 'text', text: 'Orders A-1182, A-1183 and A-1184 arrived broken. Refund what was paid.' }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup_order', input: { orderId: 'A-1182' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'lookup_order', output: { type: 'text', value: '{"orderId":"A-1182","paid":50}' } }] },
  ],
  tools: [
    { type: 'function', name: 'lookup_order', description: 'Look up an order', inputSchema: orderSchema as never },
    { type: 'function', name: 'refund', description: 'Refund an order', inputSchema: refundSchema as never },
  ],
  toolChoice: { type: 'auto' },
  maxOutputTokens: 1024,
};

/**
 * The per-call cost of `fromAISDK` over calling the AI SDK model directly: Keel's request mapped to
 * the spec's call options, the model's `doGenerate` (zero latency), its result mapped back (content,
 * tool calls with their raw argument text, usage, finish reason); and the same for a streamed answer
 * of 32 parts read to the end. The direct contender calls `doGenerate` / `doStream` with call
 * options built once, and reads the result as it is.
 */
export async function measureAiSdkAdapter(): Promise<AiSdkAdapterFigures> {
  const provider = fromAISDK(model);
  const signal = new AbortController().signal;
  const timings = await compare(
    [
      { name: 'direct', run: () => Promise.resolve(model.doGenerate({ ...directOptions, abortSignal: signal })) },
      { name: 'adapter', run: () => provider.generate(request, { signal }) },
      {
        name: 'direct-stream',
        run: async () => {
          const { stream } = await model.doStream({ ...directOptions, abortSignal: signal });
          const reader = stream.getReader();
          while (!(await reader.read()).done);
        },
      },
      {
        name: 'adapter-stream',
        run: async () => {
          for await (const part of provider.stream?.(request, { signal }) ?? []) void part;
        },
      },
    ],
    { rounds: 30, batch: 500, warmup: 3000, settle: minorGc },
  );
  const direct = timings.get('direct') as Timing;
  const adapter = timings.get('adapter') as Timing;
  const directStream = timings.get('direct-stream') as Timing;
  const adapterStream = timings.get('adapter-stream') as Timing;
  const overheadUs = adapter.medianUs - direct.medianUs;
  const streamOverheadUs = adapterStream.medianUs - directStream.medianUs;
  const row = (name: string, timing: Timing) => `| ${name} | ${us(timing.medianUs)} | ${us(timing.minUs)} – ${us(timing.maxUs)} |`;
  const paired = pairedRatio(adapterStream, directStream);
  const markdown = `## The AI SDK adapter

Per call, \`fromAISDK(model)\` against calling the same AI SDK model's \`doGenerate\` / \`doStream\`
directly with call options built once. The model answers in-process with zero latency: a text part
and two tool calls (whole), or 32 stream parts (20 text deltas, a tool call in 4 argument deltas);
the request is mid-run (system prompt, a tool exchange, two tools).

| contender | median | min – max |
| --- | --- | --- |
${row('direct `doGenerate`', direct)}
${row('`fromAISDK` `generate`', adapter)}
${row('direct `doStream`, read to the end', directStream)}
${row('`fromAISDK` `stream`, read to the end', adapterStream)}

The adapter adds **${us(overheadUs)} per call** (mapping the request and the answer) and
**${us(streamOverheadUs)} per streamed answer** (${paired.median.toFixed(2)}x the direct read, interquartile
${paired.p25.toFixed(2)}x – ${paired.p75.toFixed(2)}x: each part checked and mapped, the answer assembled, the stream
cancelled once finish arrives). Against a model call of hundreds of milliseconds, that is well under a thousandth.
`;
  return { direct, adapter, directStream, adapterStream, overheadUs, streamOverheadUs, markdown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureAiSdkAdapter();
  console.log(figures.markdown);
}
