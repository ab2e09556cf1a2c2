import { recordTrace } from '@keel/core';
import { describe, expect, it } from 'vitest';
import { createTaskAgent } from './create-task-agent';
import { refundAgent } from './refund-agent';
import { weatherAgent } from './weather-agent';
import { asComplete } from '@keel/core/test';

describe('the example agents on their scripted models', () => {
  it('weather: two tool calls in one step, then the answer', async () => {
    const result = await weatherAgent().build().run('Is it warmer in Paris or London right now?');
    expect(result.toolCalls.map((call) => [call.toolName, call.arguments, call.output])).toEqual([
      ['get_weather', { city: 'Paris' }, '18°C, light rain'],
      ['get_weather', { city: 'London' }, '15°C, overcast'],
    ]);
    expect(result.steps).toHaveLength(2);
  });

  it('refund: "USD 50" is corrected after one feedback retry, and the kept history stays clean', async () => {
    const recorder = recordTrace();
    const result = asComplete(await refundAgent().use(recorder).build().run('Order 1182 arrived broken. Decide.'));
    const events = recorder.events(result.runId).map((entry) => entry.event);
    expect(events.filter((name) => name === 'validation.failed' || name === 'reliability.recovered')).toEqual(['validation.failed', 'reliability.recovered']);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(result.provenance).toBe('model');
    expect(result.attempts.map((attempt) => attempt.status)).toEqual(['invalid', 'valid']);
    expect(result.repairs).toEqual([]);
    expect(JSON.stringify(result.messages)).not.toContain('USD 50');
  });

  it('create-task: missing project_id and "tomorrow" are fixed by one re-ask; one record with the final arguments', async () => {
    const result = await createTaskAgent().build().run('Add a task "Draft launch post", due tomorrow 9:00 UTC.');
    const created = result.toolCalls.filter((call) => call.toolName === 'create_task');
    expect(created).toHaveLength(1);
    expect(created[0]?.isError).toBe(false);
    expect(created[0]?.arguments).toMatchObject({ project_id: '5f0c6a2e-8d7b-4c1e-9a3f-2b6d8e4f1a90', due_date: '2026-11-23T09:00:00Z' });
    expect(result.attempts.filter((attempt) => attempt.purpose === 'tool-re-ask')).toHaveLength(1);
  });
});
