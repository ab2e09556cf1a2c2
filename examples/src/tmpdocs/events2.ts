import type { AgentEventName } from '@keel/core';
import { refundAgent } from '../agents/refund-agent';
import { scriptedModel } from '@keel/core/test';
const names: AgentEventName[] = ['run.start','run.end','step.start','step.end','model.request','model.response','model.error','tool.start','tool.end','tool.validation','tool.retry','validation.failed','reliability.retry','reliability.recovered','reliability.fail_fast','reliability.rule_error','reliability.feedback_error','output.fallback_used','listener.error'];
for (const provider of [undefined, scriptedModel(['{"action":"maybe"}', '{"action":"refund"}', '{"amount": 2}'])]) {
  let b = refundAgent(provider ? { provider, model: 'm' } : undefined);
  for (const n of names) b = b.on(n, (e) => { const { runId, timestamp, ...rest } = e as any; console.log(n, JSON.stringify(rest)); });
  const r = await b.build().run('x');
  console.log('=>', JSON.stringify(r.value), r.provenance, '\n');
}
