import { Type } from '@sinclair/typebox';
import { Agent, type ModelTarget, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';

const forecasts: Readonly<Record<string, string>> = { paris: '18°C, light rain', london: '15°C, overcast', tokyo: '24°C, clear' };

/** A tool that looks up the weather of a city (canned data, so the demo runs offline). */
export const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: Type.Object({ city: Type.String({ minLength: 1 }) }),
  execute: async ({ city }) => forecasts[city.toLowerCase()] ?? 'no data for that city',
});

/** The scripted model: two parallel tool calls, then a final answer built from their results. */
export function weatherScript() {
  return scriptedModel([
    { text: 'Checking both cities.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_weather', arguments: { city: 'London' } }] },
    'Paris is warmer: 18°C with light rain, against 15°C and overcast in London.',
  ]);
}

/** Builds the weather agent on a live model, or on the scripted one. */
export function weatherAgent(target: ModelTarget = { provider: weatherScript(), model: 'scripted-demo' }) {
  return Agent.create({ ...target, maxSteps: 4 })
    .system('You answer weather questions. Use get_weather for every city you mention; call it for several cities at once when you can.')
    .tool(getWeather);
}
