import { Type } from '@sinclair/typebox';
import { Agent, type ModelResponse, type ReliabilityRule } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { exponentialBackoff, providerFallbackRule, strictOutputRules, noProgressRule } from '@keel/reliability';
const log = (...a: unknown[]) => console.log(...a);
const rl = (ms?: number) => Object.assign(new Error('429 Too Many Requests'), { errorKind: 'rate-limit', ...(ms ? { retryAfterMs: ms } : {}) });
// default transient retries
{
  const r = await Agent.create({ provider: scriptedModel([rl(40), Object.assign(new Error('503'), { status: 503 }), 'hello']), model: 'm' })
    .on('reliability.retry', (e) => log('retry', e.kind, e.errorKind, e.delayMs))
    .on('reliability.recovered', (e) => log('recovered', JSON.stringify(e)))
    .build().run('x');
  log('default', r.text, r.attempts.map((a) => `${a.attempt}:${a.status}:${a.errorType}`).join(' '));
}
try {
  await Agent.create({ provider: scriptedModel([rl(1), rl(1), rl(1), 'x']), model: 'm' }).build().run('x');
} catch (e) { log('3 rate limits:', (e as Error).message); }
try {
  await Agent.create({ provider: scriptedModel([Object.assign(new Error('401'), { status: 401 })]), model: 'm' }).build().run('x');
} catch (e) { log('auth:', (e as Error).message); }
// provider fallback
{
  const r = await Agent.create({ provider: scriptedModel(rl(), { name: 'primary' }), model: 'big', fallbacks: [{ provider: scriptedModel('from backup', { name: 'backup' }), model: 'small' }] })
    .rules({ postDecide: [providerFallbackRule()] })
    .on('reliability.retry', (e) => log('retry', e.kind, e.decision, e.delayMs))
    .on('model.request', (e) => log('req', e.provider, e.model, e.attempt))
    .build().run('x');
  log('fallback', r.text, r.attempts.map((a) => a.providerIndex));
}
// custom when + feedbackForLLM + backoff
const negative: ReliabilityRule<ModelResponse> = {
  kind: 'negative-amount',
  label: 'amount below zero',
  then: 'retry',
  when: (scope) => scope.validationError?.issues.some((i) => i.path[0] === 'amount' && i.kind === 'too-small') === true && scope.retries < 2,
  feedbackForLLM: (scope) => `Amounts are never negative. You wrote: ${JSON.stringify(scope.validationError?.rawOutput ?? '')}. Reply with the JSON again.`,
  backoff: 0,
};
{
  const Out = Type.Object({ amount: Type.Number({ minimum: 0 }) });
  const model = scriptedModel(['{"amount": -5}', '{"amount": 5}']);
  const r = await Agent.create({ provider: model, model: 'm' }).outputSchema(Out)
    .rules({ postDecide: [negative, ...strictOutputRules<ModelResponse>()] })
    .on('reliability.retry', (e) => log('custom retry', e.kind, JSON.stringify(e.feedback)))
    .build().run('x');
  log('custom', JSON.stringify(r.value));
}
// rule with ok on truncated
{
  const Out = Type.Object({ amount: Type.Number({ minimum: 0 }) });
  const retryTruncated: ReliabilityRule<ModelResponse> = { kind: 'truncated-retry', then: 'retry', when: (s) => s.errorKind === 'truncated' && s.retries < 1 };
  const r = await Agent.create({ provider: scriptedModel([{ text: '{"amount":', finishReason: 'length' }, '{"amount": 1}']), model: 'm', maxTokens: 4000 })
    .outputSchema(Out).rules({ postDecide: [retryTruncated, ...strictOutputRules<ModelResponse>()] })
    .on('reliability.retry', (e) => log('trunc retry', e.kind, e.errorKind, e.feedback))
    .build().run('x');
  log('trunc', JSON.stringify(r.value));
}
log(exponentialBackoff({ baseMs: 200, random: () => 0.5 })({ retries: 0 }), exponentialBackoff({ baseMs: 200, random: () => 0.5 })({ retries: 3 }));
void noProgressRule;
