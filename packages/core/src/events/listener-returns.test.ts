import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvents, type JournalEntry, type RecordedRun } from '../index';
import { scriptedModel } from '../testing/index';

describe('listeners may return anything', () => {
  it('takes listeners that return a value (`(event) => seen.push(event)`) and ignores what they return', async () => {
    const ends: AgentEvents['run.end'][] = [];
    const starts: AgentEvents['run.start'][] = [];
    const entries: JournalEntry[] = [];
    const records: RecordedRun[] = [];
    // Each of these returns a number: it must compile under strict, and change nothing.
    const agent = Agent.create({ provider: scriptedModel('hi'), model: 'm' })
      .on('run.start', (event) => starts.push(event))
      .onJournal((entry) => entries.push(entry))
      .onRecord((run) => records.push(run))
      .build();
    agent.on('run.end', (event) => ends.push(event));
    const result = await agent.run('hello');
    expect(result.text).toBe('hi');
    expect([starts.length, ends.length, records.length]).toEqual([1, 1, 1]);
    expect(entries.map((entry) => entry.type)).toEqual(['input', 'answer', 'end']);
  });
});
