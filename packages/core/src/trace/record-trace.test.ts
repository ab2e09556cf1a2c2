import { describe, expect, it } from 'vitest';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { Extension } from '../agent/agent';
import { recordTrace } from './record-trace';
import { retryScenario } from '../testing/retry-scenario';

describe('recordTrace', () => {
  it('collects every event of a run, in order, and survives a JSON round trip unchanged', async () => {
    const recorder = recordTrace();
    const { builder } = retryScenario();
    const result = await builder.use(recorder).build().run('Refund order 1182?');

    const trace = recorder.trace();
    expect(trace.runs).toHaveLength(1);
    const run = trace.runs[0]!;
    expect(run.runId).toBe(result.runId);
    const names = run.events.map((entry) => entry.event);
    expect(names[0]).toBe('run.start');
    expect(names.at(-1)).toBe('run.end');
    expect(names).toEqual(expect.arrayContaining(['tool.re-ask', 'model.error', 'reliability.retry', 'validation.failed', 'reliability.recovered']));
    expect(names.filter((name) => name === 'model.request')).toHaveLength(5);
    expect(run.events.every((entry) => entry.payload.runId === result.runId)).toBe(true);

    const revived = JSON.parse(JSON.stringify(recorder));
    expect(revived).toEqual(trace);
    expect(recorder.events(result.runId)).toEqual(run.events);
  });

  it('keeps runs apart and can be cleared', async () => {
    const recorder = recordTrace();
    const first = await retryScenario().builder.use(recorder).build().run('one');
    const second = await retryScenario().builder.use(recorder).build().run('two');
    expect(recorder.trace().runs.map((run) => run.runId)).toEqual([first.runId, second.runId]);
    expect(recorder.events('unknown')).toEqual([]);
    recorder.clear();
    expect(recorder.trace()).toEqual({ version: 1, runs: [] });
  });
});

describe('builder.use', () => {
  it('applies extensions in order and leaves the original builder untouched', async () => {
    const order: string[] = [];
    const tag =
      (name: string): Extension =>
      (builder) =>
        builder.on('run.start', () => void order.push(name));
    const { builder } = retryScenario();
    const extended = builder.use(tag('a')).use(tag('b'));
    await extended.build().run('x');
    expect(order).toEqual(['a', 'b']);
    order.length = 0;
    await retryScenario().builder.build().run('x');
    expect(order).toEqual([]);
  });

  it('refuses an extension that does not return a builder', () => {
    const { builder } = retryScenario();
    expect(() => builder.use((() => undefined) as unknown as Extension)).toThrow(AgentConfigurationError);
    expect(() => builder.use('telemetry' as unknown as Extension)).toThrow(/use\(\) takes an extension/);
  });
});
