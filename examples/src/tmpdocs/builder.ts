import { Type } from '@sinclair/typebox';
import { Agent, AgentConfigurationError, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
const model = scriptedModel('hi');
const base = Agent.create({ provider: model, model: 'm' });
const Out = Type.Object({ n: Type.Number() });
const t = tool({ name: 'x', description: 'd', input: Type.Object({}), execute: () => 1 });
const cases: [string, () => unknown][] = [
  ['system twice', () => base.system('a').system('b').build()],
  ['maxSteps 0', () => Agent.create({ provider: model, model: 'm', maxSteps: 0 }).build()],
  ['empty model', () => Agent.create({ provider: model, model: ' ' }).build()],
  ['dup tool', () => base.tool(t).tool(t).build()],
  ['fallback no schema', () => base.outputFallback({ canned: 'x' }).build()],
  ['bad canned', () => base.outputSchema(Out).outputFallback({ canned: { n: 'zero' } as never }).build()],
  ['precheck retry', () => base.rules({ preCheck: [{ kind: 'k', then: 'retry', when: () => true }] }).build()],
  ['maxAttempts 0', () => base.outputSchema(Out, { maxAttempts: 0 }).build()],
  ['tool name', () => tool({ name: 'bad name', description: 'd', input: Type.Object({}), execute: () => 1 })],
  ['fallback empty', () => base.outputSchema(Out).outputFallback({}).build()],
];
for (const [label, f] of cases) {
  try { f(); console.log(label, 'OK?!'); } catch (e) { console.log(label, '→', AgentConfigurationError.isInstance(e) ? `[${e.setting}] ${e.message}` : e); }
}
const a = base.system('A');
const b = a.tool(t);
console.log(a === b, a.build().config.tools.size, b.build().config.tools.size);
