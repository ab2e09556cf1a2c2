/**
 * Gemini through the AI SDK's provider package and `@keel/ai-sdk`: an agent with a tool and an
 * output schema on `fromAISDK(google)`. With GOOGLE_GENERATIVE_AI_API_KEY set it calls Gemini
 * (KEEL_GEMINI_MODEL picks the model, default gemini-2.5-flash); without it, it runs offline against
 * a local server that speaks Gemini's `generateContent` protocol and answers as a model might:
 * a rate limit first, a tool call with a bad argument, the corrected call, then the answer.
 *
 *   pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/ai-sdk-gemini.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { fromAISDK } from '@keel/ai-sdk';
import { Agent, consoleTrace, tool } from '@keel/core';
import { Type } from '@sinclair/typebox';

const forecasts: Readonly<Record<string, number>> = { paris: 18, london: 15, tokyo: 24 };

/** The answer the agent must give: validated by Keel, and sent to Gemini as its response schema. */
export const Forecast = Type.Object({ city: Type.String(), celsius: Type.Number(), advice: Type.String({ maxLength: 80 }) }, { additionalProperties: false });

/** A tool whose arguments Keel validates before it runs. */
export const getTemperature = tool({
  name: 'get_temperature',
  description: 'Current temperature of a city, in °C',
  input: Type.Object({ city: Type.String({ minLength: 2 }) }),
  execute: async ({ city }) => forecasts[city.toLowerCase()] ?? 'no data for that city',
});

/** The agent on any AI SDK Gemini provider (`google`, or one made by `createGoogleGenerativeAI`). */
export function geminiAgent(google: ReturnType<typeof createGoogleGenerativeAI>, model = 'gemini-2.5-flash') {
  return Agent.create({ provider: fromAISDK(google), model, maxSteps: 4 })
    .system('You answer weather questions. Call get_temperature for the city first.')
    .tool(getTemperature)
    .outputSchema(Forecast);
}

const usageMetadata = { promptTokenCount: 180, candidatesTokenCount: 20, totalTokenCount: 200 };
const reply = (parts: unknown[]) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: 'gemini-2.5-flash' });

/** What the local server answers, in order: Gemini's wire format, as the real service sends it. */
const script: readonly { status: number; headers?: Record<string, string>; body: unknown }[] = [
  { status: 429, headers: { 'retry-after': '0.2' }, body: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } } },
  { status: 200, body: reply([{ functionCall: { name: 'get_temperature', args: { city: 'P' } } }]) },
  { status: 200, body: reply([{ functionCall: { name: 'get_temperature', args: { city: 'Paris' } } }]) },
  { status: 200, body: reply([{ text: '{"city":"Paris","celsius":18,"advice":"Light jacket."}' }]) },
];

/** Starts the local Gemini server on 127.0.0.1; `close` stops it. */
export async function startLocalGemini(): Promise<{ baseURL: string; requests: number; close: () => Promise<void> }> {
  let served = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const next = script[served++] ?? { status: 500, body: { error: { code: 500, message: 'the local script is over', status: 'INTERNAL' } } };
      response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers }).end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1beta`,
    get requests() {
      return served;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs the example: live when GOOGLE_GENERATIVE_AI_API_KEY is set, else offline on the local server. */
export async function runGeminiExample(environment: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  const apiKey = environment['GOOGLE_GENERATIVE_AI_API_KEY'] ?? '';
  const local = apiKey === '' ? await startLocalGemini() : undefined;
  try {
    const google = createGoogleGenerativeAI(local === undefined ? { apiKey } : { baseURL: local.baseURL, apiKey: 'offline' });
    const agent = geminiAgent(google, local === undefined ? (environment['KEEL_GEMINI_MODEL'] ?? 'gemini-2.5-flash') : 'gemini-2.5-flash')
      .use(consoleTrace({ colors: process.stdout.isTTY === true }))
      .build();
    const result = await agent.run('What should I wear in Paris today?');
    // This agent has no tool that needs approval: its runs complete (the narrowing types `value`).
    if (result.status !== 'complete') throw new Error('the run suspended');
    console.log(`Value: ${JSON.stringify(result.value)}`);
    console.log(`${result.attempts.length} model calls (${result.attempts.map((attempt) => attempt.errorKind).join(', ')}); ${result.usage.inputTokens} input tokens, ${result.usage.cacheReadTokens} read from cache`);
  } finally {
    await local?.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runGeminiExample();
