import { Type } from '@sinclair/typebox';
import { Agent, tool, idShapeGuard, type ToolGuard } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { runGate, validateOutput, toValidator, strictOutputRules, type GateVerdict } from '@keel/reliability';

const Out = Type.Object({ n: Type.Number() });
const log = (...a: unknown[]) => console.log(...a);

// retry conversation shape
{
  const model = scriptedModel(['{"n": "a"}', '{"q": 2}', '{"n": 3}']);
  const r = await Agent.create({ provider: model, model: 'm' }).system('sys').outputSchema(Out, { retryHint: 'n is a number', maxAttempts: 3 }).build().run('go');
  log('shape', JSON.stringify(model.requests[2]?.messages, null, 1), r.messages.length, r.attempts.map((a) => [a.attempt, a.status, a.errorType, a.feedbackSent]));
}
// feedbackTemplate throws
{
  const r = await Agent.create({ provider: scriptedModel(['{"n": "a"}', '{"n": 3}']), model: 'm' })
    .outputSchema(Out, { feedbackTemplate: () => { throw new Error('tpl broke'); } })
    .on('reliability.feedback_error', (e) => log('fb error', JSON.stringify(e)))
    .on('reliability.retry', (e) => log('retry feedback', JSON.stringify(e.feedback)))
    .build().run('go');
  log('tpl ok', r.value);
}
// template
{
  const r = await Agent.create({ provider: scriptedModel(['{"n": "a"}', '{"n": 3}']), model: 'm' })
    .outputSchema(Out, { retryHint: 'hint!', feedbackTemplate: (input) => { log('tpl input', JSON.stringify(input)); return 'fix it'; } })
    .build().run('go');
}
// native
{
  const model = scriptedModel('{"n": 1}');
  await Agent.create({ provider: model, model: 'm' }).outputSchema(Out, { nativeStructuredOutput: true }).build().run('go');
  log('native', JSON.stringify(model.requests[0]?.responseFormat));
}
// tool outcomes
const Input = Type.Object({ id: Type.String({ format: 'uuid' }), n: Type.Number() });
const mk = (extra: Partial<Parameters<typeof tool>[0]> = {}) => tool({ name: 'set', description: 'd', input: Input, execute: (i) => `ok ${i.n}`, ...extra } as never);
const U = '5f0c6a2e-8d7b-4c1e-9a3f-2b6d8e4f1a90';
for (const [label, replies, t, opts] of [
  ['redundant', [{ toolCalls: [{ name: 'set', arguments: { id: U, n: 'x' } }] }, { toolCalls: [{ name: 'set', arguments: { id: U, n: 'y' } }] }, 'done'], mk(), {}],
  ['exhausted', [{ toolCalls: [{ name: 'set', arguments: { id: U, n: 'x' } }] }, { toolCalls: [{ name: 'set', arguments: { id: 'x', n: 1 } }] }, 'done'], tool({ name: 'set', description: 'd', input: Type.Object({ id: Type.String({ format: 'uuid' }), n: Type.Number() }, { additionalProperties: false }), execute: () => 'ok', retries: 1 }), {}],
  ['gave_up', [{ toolCalls: [{ name: 'set', arguments: { id: U, n: 'x' } }] }, 'I give up', 'done'], mk(), {}],
  ['guard_rejected', [{ toolCalls: [{ name: 'set', arguments: { n: 1 } }] }, { toolCalls: [{ name: 'set', arguments: { id: 'proj-1', n: 1 } }] }, 'done'], mk(), { guard: true }],
  ['unknown', [{ toolCalls: [{ name: 'nope', arguments: {} }] }, 'done'], mk(), {}],
  ['throws', [{ toolCalls: [{ name: 'set', arguments: { id: U, n: 1 } }] }, 'done'], tool({ name: 'set', description: 'd', input: Input, execute: () => { throw new Error('db down'); } }), {}],
  ['novalidate', [{ toolCalls: [{ name: 'set', arguments: { whatever: true } }] }, 'done'], tool({ name: 'set', description: 'd', input: Input, validate: false, execute: (i) => JSON.stringify(i) }), {}],
] as const) {
  let b = Agent.create({ provider: scriptedModel(replies as never), model: 'm' }).tool(t as never)
    .on('tool.validation', (e) => log(label, 'validation', e.outcome, e.retryCount))
    .on('tool.retry', (e) => log(label, 'retry', e.retry));
  if ((opts as { guard?: boolean }).guard) b = b.guards([idShapeGuard({ fields: ['id'] })]);
  const r = await b.build().run('go');
  log(label, JSON.stringify(r.toolCalls.map((c) => [c.errorCode, c.output, c.arguments])), r.usage.modelCalls, r.attempts.map((a) => a.purpose).join(','));
}
// standalone gate
{
  const validator = toValidator(Out);
  let calls = 0;
  const result = await runGate<string, { n: number }>({
    call: async ({ feedback }) => { calls++; log('gate call', calls, feedback?.text.split('\n')[1]); return calls === 1 ? '{"n": "one"}' : '{"n": 1}'; },
    validate: async (text): Promise<GateVerdict<{ n: number }>> => {
      const check = await validateOutput(text, validator);
      return check.ok ? { status: 'accept', value: check.value, rawOutput: text } : { status: 'invalid', failure: check.failure };
    },
    rules: strictOutputRules(),
  });
  log('gate', JSON.stringify(result.value), result.via, result.attempts.length);
}
// custom guard
const noSecrets: ToolGuard = (toolName, args) => {
  const path = (args as { path?: unknown } | null)?.path;
  return toolName === 'read_file' && typeof path === 'string' && path.includes('..') ? { code: 'PATH_ESCAPE', message: 'paths must stay inside the workspace' } : undefined;
};
{
  const rf = tool({ name: 'read_file', description: 'd', input: Type.Object({ path: Type.String() }), execute: ({ path }) => `contents of ${path}`, guards: [noSecrets] });
  const r = await Agent.create({ provider: scriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: '../.env' } }] }, 'done']), model: 'm' }).tool(rf).build().run('go');
  log('guard', JSON.stringify(r.toolCalls[0]));
}
