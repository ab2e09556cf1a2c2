import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ReliabilityFailFastError } from '@keel/reliability';
import { legitimateTraces, loopingTraces, type LoopingTrace, type Trace, type TraceCall } from '../../../reliability/test/loop-corpus';
import { Agent, type AgentEvents, tool } from '../index';
import { scriptedModel } from '../testing/index';

const ANY_INPUT = Type.Object({}, { additionalProperties: true });
const TOOL_NAMES = ['search', 'read_file', 'list_dir', 'query', 'fetch_page', 'get_status', 'write_file', 'wait'];

/** An agent whose model plays `trace` (ignoring feedback, as a stuck model does) and whose tools answer from its world. */
function traceAgent(trace: Trace) {
  let toolStep = 1;
  const tools = TOOL_NAMES.map((name) =>
    tool({
      name,
      description: name,
      input: ANY_INPUT,
      execute: (input) => {
        const outcome = trace.world({ name, arguments: input as Record<string, unknown> } as TraceCall, toolStep);
        if (outcome.failed) throw new Error(JSON.stringify(outcome.result));
        return outcome.result;
      },
    }),
  );
  const model = scriptedModel((request) => {
    // The step is the number of tool results already sent, plus one: a re-ask in a step repeats its calls.
    const step = request.messages.filter((message) => message.role === 'tool').length + 1;
    toolStep = step;
    const calls = trace.next(step, []);
    if (!calls) return 'done';
    return { toolCalls: calls.map((call, index) => ({ id: `s${step}-${index}`, name: call.name, arguments: call.arguments })) };
  });
  const events: { name: string; payload: unknown }[] = [];
  let builder = Agent.create({ provider: model, model: 'scripted', maxSteps: 40 }).tools(tools);
  for (const name of ['reliability.loop-detected', 'reliability.fail-fast'] as const) builder = builder.on(name, (payload) => void events.push({ name, payload }));
  return { agent: builder.build(), model, events };
}

describe('action loops across a run (the default rules)', () => {
  it('tells the model about a repeated call once, then stops the run with kind action-loop', async () => {
    const [trace] = loopingTraces(1) as [LoopingTrace];
    const { agent, model, events } = traceAgent(trace);
    let ended: AgentEvents['run.end'] | undefined;
    agent.on('run.end', (event) => void (ended = event));
    const error = await agent.run('find it').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error) && error.kind).toBe('action-loop');
    expect(ended?.loopsDetected).toBe(2);
    const detected = events.filter((event) => event.name === 'reliability.loop-detected').map((event) => event.payload as AgentEvents['reliability.loop-detected']);
    expect(detected.map((event) => [event.loop, event.action, event.rounds])).toEqual([
      ['repeated-call', 'nudge', 3],
      ['repeated-call', 'stop', 3],
    ]);
    // Each names the rule that found the loop, and so does the stop.
    expect(detected.map((event) => event.rule)).toEqual(['action-loop', 'action-loop']);
    expect(events.filter((event) => event.name === 'reliability.fail-fast').map((event) => (event.payload as AgentEvents['reliability.fail-fast']).rule)).toEqual(['action-loop']);
    // The nudge names the loop and quotes what was returned, as ephemeral feedback.
    const nudged = model.requests.at(-1)?.messages.at(-1);
    expect(nudged).toMatchObject({ role: 'user' });
    expect(String((nudged as { content: string }).content)).toMatch(/You called `\w+` with these same arguments 3 times and got the same result each time/);
  });

  it('stops each of 200 looping traces within 3 rounds of its loop and 2 model calls of finding it', async () => {
    const late: string[] = [];
    for (const trace of loopingTraces(200, 7)) {
      const { agent, model, events } = traceAgent(trace);
      let callsAtDetection = -1;
      agent.on('reliability.loop-detected', () => void (callsAtDetection < 0 && (callsAtDetection = model.calls)));
      const error = await agent.run('go').catch((thrown: unknown) => thrown);
      const stopped = ReliabilityFailFastError.isInstance(error) && error.kind === 'action-loop';
      const firstStep = (events.find((event) => event.name === 'reliability.loop-detected')?.payload as { step?: number } | undefined)?.step ?? Number.POSITIVE_INFINITY;
      const rounds = (firstStep - trace.loopStartsAt) / trace.period;
      if (!stopped || rounds > 3 || model.calls - callsAtDetection > 2) late.push(`${trace.name}: stopped ${stopped}, rounds ${rounds}, calls after ${model.calls - callsAtDetection}`);
    }
    expect(late).toEqual([]);
  });

  it('never fires on 200 legitimate traces: polling, pagination, retries that succeed, reads after writes, refined searches', async () => {
    const fired: string[] = [];
    for (const trace of legitimateTraces(200, 11)) {
      const { agent, events } = traceAgent(trace);
      const result = await agent.run('go');
      if (events.length > 0 || result.text !== 'done') fired.push(trace.name);
    }
    expect(fired).toEqual([]);
  });

  it('lets the run go on when the model changes course after the nudge', async () => {
    const search = tool({ name: 'search', description: 'search', input: ANY_INPUT, execute: () => 'no hits' });
    let nudged = false;
    const model = scriptedModel((request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user' && last.ephemeral) nudged = true;
      if (nudged) return 'I could not find it.';
      return { toolCalls: [{ id: `c${request.messages.length}`, name: 'search', arguments: { q: 'x' } }] };
    });
    const result = await Agent.create({ provider: model, model: 'scripted' }).tool(search).build().run('find x');
    expect(result.text).toBe('I could not find it.');
    expect(result.toolCalls).toHaveLength(3);
  });
});
