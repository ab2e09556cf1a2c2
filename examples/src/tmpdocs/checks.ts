import { Type } from '@sinclair/typebox';
import { Agent, InMemoryStore, MaxStepsExceededError, ReliabilityFailFastError, StreamInterruptedError, tool, type ModelProvider, type ModelStreamPart } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { costBudget, tokenBudget } from '@keel/reliability';

const Out = Type.Object({ n: Type.Number() });
const log = (...a: unknown[]) => console.log(...a);

// 1 stream interrupted (pass-through, text shown then error)
const base = scriptedModel(['{"n": 1}']);
const broken: ModelProvider = {
  specificationVersion: 'v1', name: 'broken',
  generate: base.generate,
  async *stream(): AsyncIterable<ModelStreamPart> { yield { type: 'text-delta', text: '{"n"' }; throw Object.assign(new Error('socket hang up'), { errorKind: 'network' }); },
};
try {
  const s = Agent.create({ provider: broken, model: 'm' }).outputSchema(Out).build().stream('x', { textMode: 'pass-through' });
  for await (const p of s) log('part', p.type);
} catch (e) { log('1:', (e as Error).name, ReliabilityFailFastError.isInstance(e) ? [(e as ReliabilityFailFastError).kind, (e as ReliabilityFailFastError).errorKind] : '', StreamInterruptedError.isInstance(e), (e as Error).message); }

// 2 pass-through retry part
{
  const s = Agent.create({ provider: scriptedModel(['{"n": "one"}', '{"n": 1}']), model: 'm' }).outputSchema(Out).build().stream('x', { textMode: 'pass-through' });
  for await (const p of s) log('2 part', JSON.stringify(p.type === 'result' ? { type: 'result' } : p));
}
// 3 fallback rule without fallback configured
try {
  await Agent.create({ provider: scriptedModel(['nope']), model: 'm' }).outputSchema(Out).rules({ postDecide: [{ kind: 'fb', then: 'fallback', when: (s) => s.errorKind !== 'ok' }] }).build().run('x');
} catch (e) { log('3:', (e as Error).name, (e as Error).message); }
// 4 strict false parse failure
try {
  const r = await Agent.create({ provider: scriptedModel(['{"n": "one"}']), model: 'm' }).outputSchema(Out, { strict: false }).build().run('x');
  log('4a:', JSON.stringify(r.value), JSON.stringify(r.issues));
  await Agent.create({ provider: scriptedModel(['not json']), model: 'm' }).outputSchema(Out, { strict: false }).build().run('x');
} catch (e) { log('4b:', (e as Error).name, (e as Error).message); }
// 5 max steps
try {
  const t = tool({ name: 't', description: 'd', input: Type.Object({}), execute: () => 'ok' });
  await Agent.create({ provider: scriptedModel({ toolCalls: [{ name: 't', arguments: {} }] }), model: 'm', maxSteps: 2 }).tool(t).build().run('x');
} catch (e) { if (MaxStepsExceededError.isInstance(e)) log('5:', e.message, e.partial.steps.length, e.partial.toolCalls.length, e.partial.usage.modelCalls); }
// 6 memory
{
  const store = new InMemoryStore();
  const agent = Agent.create({ provider: scriptedModel(['{"n": "one"}', '{"n": 1}', '{"n": 2}']), model: 'm' }).outputSchema(Out).memory(store).build();
  await agent.run('first', { conversationId: 'c1' });
  log('6:', JSON.stringify(await store.load('c1')));
  const r = await agent.run('second', { conversationId: 'c1' });
  log('6b messages in result', r.messages.length, (await store.load('c1')).length);
}
// 7 exhausted + stuck loop
try {
  await Agent.create({ provider: scriptedModel(['{"n": "a"}', '{"n": "b"}', '{"n": "c"}']), model: 'm' }).outputSchema(Out).build().run('x');
} catch (e) { const f = e as ReliabilityFailFastError; log('7:', f.kind, f.phase, f.attempt, f.errorKind, f.attempts.length, f.message); }
try {
  await Agent.create({ provider: scriptedModel(['{"n": "a"}', '{"m": 1}', '{"n": "c"}', '{}']), model: 'm' }).outputSchema(Out).build().run('x');
} catch (e) { const f = e as ReliabilityFailFastError; log('7b:', f.kind, f.phase, f.attempt, f.errorKind, f.attempts.length, f.message); }
// 8 rule throws
try {
  await Agent.create({ provider: scriptedModel(['x']), model: 'm' }).on('reliability.rule_error', (e) => log('8 event', JSON.stringify(e))).rules({ preCheck: [{ kind: 'bad', then: 'fail-fast', when: () => { throw new Error('oops'); } }] }).build().run('x');
} catch (e) { const f = e as ReliabilityFailFastError; log('8:', f.kind, f.label, f.phase, f.message); }
// 9 cost budget
try {
  const agent = Agent.create({ provider: scriptedModel(['{"n": "a"}', '{"q": 1}', '{"n": 1}']), model: 'm', pricing: { m: { inputPerMTok: 3_000_000, outputPerMTok: 15_000_000 } } })
    .outputSchema(Out).rules({ preCheck: [costBudget({ maxUsd: 50 })] }).build();
  const r = await agent.run('x'); log('9 ok', r.usage);
} catch (e) { const f = e as ReliabilityFailFastError; log('9:', f.kind, f.phase, f.attempt, f.message); }
// 10 tokenBudget
try {
  await Agent.create({ provider: scriptedModel(['{"n": "a"}', '{"q": 1}', '{"n": 1}']), model: 'm' }).outputSchema(Out).rules({ preCheck: [tokenBudget(10)] }).build().run('x');
} catch (e) { const f = e as ReliabilityFailFastError; log('10:', f.kind, f.phase, f.attempt, f.message); }
// 11 truncated
try {
  await Agent.create({ provider: scriptedModel([{ text: '{"n":', finishReason: 'length' }]), model: 'm' }).outputSchema(Out).build().run('x');
} catch (e) { const f = e as ReliabilityFailFastError; log('11:', f.kind, f.phase, f.errorKind, f.message); }
// 12 abort
try {
  const c = new AbortController(); setTimeout(() => c.abort(new Error('user cancelled')), 20);
  await Agent.create({ provider: scriptedModel([{ text: 'x', delayMs: 1000 }]), model: 'm' }).build().run('x', { signal: c.signal });
} catch (e) { log('12:', (e as Error).name, (e as Error).message); }
