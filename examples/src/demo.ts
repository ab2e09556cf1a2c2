/**
 * `pnpm demo`: runs the example agents and prints a trace of each. Offline on the scripted model,
 * or against a real API when ANTHROPIC_API_KEY (or OPENAI_API_KEY / OPENAI_BASE_URL) is set.
 */
import type { ModelTarget } from '@keel/core';
import { createTaskAgent } from './agents/create-task-agent';
import { refundAgent } from './agents/refund-agent';
import { weatherAgent } from './agents/weather-agent';
import { providerFromEnv } from './providers/provider-from-env';
import { streamRefund } from './streaming';
import { withTrace } from './trace';

const live: ModelTarget | undefined = providerFromEnv();
const heading = (title: string) => console.log(`\n=== ${title} ===`);
console.log(live ? `Using ${live.provider.name}/${live.model} (live API).` : 'No API key set: using the built-in scripted model.');

heading('1. Agent and tools: two parallel tool calls, then an answer');
const weather = await withTrace(weatherAgent(live)).build().run('Is it warmer in Paris or London right now?');
console.log(`Answer: ${weather.text}`);

heading('2. Strict output: the refund agent corrects "USD 50" from the feedback it is sent');
const refund = await withTrace(refundAgent(live)).build().run('Order 1182 arrived broken; the customer paid $50. Decide.');
console.log(`Value: ${JSON.stringify(refund.value)} (provenance: ${refund.provenance}, ${refund.attempts.length} model calls)`);
console.log(`Kept messages: ${refund.messages.length} (the rejected answer and the feedback were ephemeral)`);

heading('3. Tool-argument feedback: create_task without project_id and with due_date "tomorrow"');
const task = await withTrace(createTaskAgent(live)).build().run('Add a task "Draft launch post" to the Website relaunch project, due tomorrow at 9:00 UTC.');
console.log(`Answer: ${task.text}`);
console.log(`Tool calls kept: ${task.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`).join(', ')}`);

heading('4. Streaming: text is held until the output validates');
await streamRefund(live);
