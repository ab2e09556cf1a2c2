/**
 * `pnpm demo [name]`: runs the example agents (or the one named: weather, refund, create-task,
 * stream, hardening) and prints a trace of each. Offline on the scripted model, or against a real API when
 * ANTHROPIC_API_KEY (or OPENAI_API_KEY / OPENAI_BASE_URL) is set.
 */
import { consoleTrace, type ModelTarget } from '@keel/core';
import { createTaskAgent } from './agents/create-task-agent';
import { budgetUnderFire, deadline, stuckTool } from './hardening';
import { refundAgent } from './agents/refund-agent';
import { weatherAgent } from './agents/weather-agent';
import { providerFromEnv } from './providers/provider-from-env';
import { streamRefund } from './streaming';

const live: ModelTarget | undefined = providerFromEnv();
/** The readable run trace, coloured on a terminal. */
const trace = consoleTrace({ colors: process.stdout.isTTY === true });

const demos: readonly { name: string; title: string; run: () => Promise<void> }[] = [
  {
    name: 'weather',
    title: 'Agent and tools: two parallel tool calls, then an answer',
    run: async () => {
      const result = await weatherAgent(live).use(trace).build().run('Is it warmer in Paris or London right now?');
      console.log(`Answer: ${result.text}`);
    },
  },
  {
    name: 'refund',
    title: 'Strict output: the refund agent corrects "USD 50" from the feedback it is sent',
    run: async () => {
      const result = await refundAgent(live).use(trace).build().run('Order 1182 arrived broken; the customer paid $50. Decide.');
      // This agent has no tool that needs approval: its runs complete (the narrowing types `value`).
      if (result.status !== 'complete') throw new Error('the run suspended');
      console.log(`Value: ${JSON.stringify(result.value)} (provenance: ${result.provenance}, ${result.attempts.length} model calls)`);
      console.log(`Kept messages: ${result.messages.length} (the rejected answer and the feedback were ephemeral)`);
    },
  },
  {
    name: 'create-task',
    title: 'Tool-argument feedback: create_task without project_id and with due_date "tomorrow"',
    run: async () => {
      const result = await createTaskAgent(live).use(trace).build().run('Add a task "Draft launch post" to the Website relaunch project, due tomorrow at 9:00 UTC.');
      console.log(`Answer: ${result.text}`);
      console.log(`Tool calls kept: ${result.toolCalls.map((call) => `${call.toolName}(${JSON.stringify(call.arguments)})`).join(', ')}`);
    },
  },
  {
    name: 'stream',
    title: 'Streaming: text is held until the output validates',
    run: () => streamRefund(live),
  },
  {
    name: 'hardening',
    title: 'Hardening (scripted): a budget under ten concurrent re-asks, a stuck tool, a run deadline',
    run: async () => {
      await budgetUnderFire();
      await stuckTool();
      await deadline();
    },
  },
];

const only = process.argv[2];
const chosen = only ? demos.filter((demo) => demo.name === only) : demos;
if (chosen.length === 0) {
  console.error(`Unknown demo "${only}". Choose one of: ${demos.map((demo) => demo.name).join(', ')}.`);
  process.exit(2);
}
console.log(live ? `Using ${live.provider.name}/${live.model} (live API).` : 'No API key set: using the built-in scripted model.');
for (const [index, demo] of chosen.entries()) {
  console.log(`\n=== ${index + 1}. ${demo.title} ===`);
  await demo.run();
}
