import { Type } from '@sinclair/typebox';
import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: Type.Object({ city: Type.String({ minLength: 1 }) }),
  execute: async ({ city }) => (city === 'Paris' ? '18°C, light rain' : 'no data'),
});

// The scripted model answers from a list: first a tool call, then the final text.
const model = scriptedModel([
  { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  'It is 18°C with light rain in Paris.',
]);

const agent = Agent.create({ provider: model, model: 'scripted-demo', maxSteps: 4 })
  .system('You answer weather questions. Use get_weather.')
  .tool(getWeather)
  .build();

const result = await agent.run('What is the weather in Paris?');
console.log(result.text);            // It is 18°C with light rain in Paris.
console.log(result.steps.length);    // 2
console.log(result.toolCalls[0]?.output); // 18°C, light rain
console.log(result.usage);           // tokens of every model call (the scripted model estimates ~4 characters a token)
