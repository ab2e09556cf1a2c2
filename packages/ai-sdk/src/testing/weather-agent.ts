import { Agent, type AgentEvents, tool } from '@keel/core';
import { type ModelProvider } from '@keel/provider';
import { Type } from '@sinclair/typebox';

/** The answer the weather agent of the tests gives. */
export const Forecast = Type.Object({ city: Type.String(), celsius: Type.Number() }, { additionalProperties: false });

/** A tool the weather agent calls: 18 for Paris, `unknown` elsewhere. */
export const getWeather = tool({
  name: 'get_weather',
  description: 'Current temperature of a city',
  input: Type.Object({ city: Type.String({ minLength: 1 }) }),
  execute: async ({ city }) => (city === 'Paris' ? '18' : 'unknown'),
});

/** One event the agent reported. */
export type RecordedEvent = { readonly name: keyof AgentEvents; readonly payload: Record<string, unknown> };

/**
 * An agent builder on `provider` (up to four steps) that records its `model.error`,
 * `reliability.retry` and `tool.re-ask` events.
 */
export function recordingAgent(provider: ModelProvider, model: string) {
  const events: RecordedEvent[] = [];
  let builder = Agent.create({ provider, model, maxSteps: 4 });
  for (const name of ['model.error', 'reliability.retry', 'tool.re-ask'] as const) builder = builder.on(name, (payload) => void events.push({ name, payload: payload as unknown as Record<string, unknown> }));
  return { builder, events };
}
