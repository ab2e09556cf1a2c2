import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { DevtoolsError } from '../errors/devtools-error';
import { recordPageRun } from '../testing/page-run';
import { entriesOf, eventsOf, readTrace } from '../testing/read-trace';
import { HOSTILE_ANSWER, HOSTILE_POLICY, recordApprovalRun, recordReAskRun } from '../testing/support-runs';
import { fileTrace } from './file-trace';

const folder = () => mkdtempSync(join(tmpdir(), 'keel-file-trace-'));

/** Each run's entries, by run: numbered from 0 without a gap or a repeat. */
function expectEachEntryOnce(lines: ReturnType<typeof readTrace>, runId: string): void {
  expect(entriesOf(lines, runId).map((entry) => entry.seq)).toEqual(entriesOf(lines, runId).map((_, index) => index));
}

describe('fileTrace', () => {
  it("writes each journal entry of a run once, as it is written, with the events no entry tells, every field when recordContent is on", async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path, { recordContent: true });
    const result = await recordReAskRun(trace);
    await trace.flush();
    const lines = readTrace(path);
    const own = entriesOf(lines, result.runId);
    expectEachEntryOnce(lines, result.runId);
    expect(own[0]?.type).toBe('input');
    expect(own.at(-1)?.type).toBe('end');
    expect(own.every((entry) => entry.withoutContent === undefined)).toBe(true);
    const events = eventsOf(lines, result.runId);
    expect(events.map((event) => event.event)).not.toContain('model.content');
    expect(events.filter((event) => event.event === 'reliability.retry').map((event) => event.payload?.feedback)).toHaveLength(2);
    expect(events.find((event) => event.event === 'tool.re-ask')?.payload?.feedback).toContain("'orderId'");
    const attempts = own.flatMap((entry) => (entry.attempts ?? []) as { rawOutput?: string }[]);
    // The run's ledger counts its sub-agent's model call too, as its result does: the entry written when the sub-agent returned holds it.
    expect(attempts).toHaveLength(result.attempts.length);
    expect(attempts.some((attempt) => attempt.rawOutput === HOSTILE_ANSWER)).toBe(true);
    expect(own.at(-1)?.end).toMatchObject({ usage: { costUsd: result.usage.costUsd } });
    const child = lines.find((line) => line.type === 'input' && (line.start as { parentRunId?: string }).parentRunId === result.runId);
    expect(child?.start).toMatchObject({ parentToolCallId: result.toolCalls.find((call) => call.toolName === 'policy_check')?.toolCallId });
    const childAttempts = entriesOf(lines, child?.runId as string).flatMap((entry) => (entry.attempts ?? []) as unknown[]);
    expect(childAttempts).toHaveLength(1);
    expect(readFileSync(path, 'utf8')).toContain('window.__pwned = 1');
  });

  it('writes no byte the model wrote without recordContent, and marks each entry so', async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path);
    const result = await recordReAskRun(trace);
    await trace.flush();
    const text = readFileSync(path, 'utf8');
    for (const content of ['__pwned', 'not json', 'lots', 'A-1', 'orderId', 'refund it', 'policy agent', 'support agent']) expect(text).not.toContain(content);
    expect(text).toContain('"rule":"schema-retry"');
    expect(text).not.toContain(HOSTILE_ANSWER.slice(0, 8));
    expect(text).not.toContain(HOSTILE_POLICY.slice(0, 12));
    const own = entriesOf(readTrace(path), result.runId);
    expect(own.every((entry) => entry.withoutContent === true && entry.messages === undefined && entry.mac === undefined)).toBe(true);
    expect(own.flatMap((entry) => (entry.toolCalls ?? []) as { toolName?: string }[]).map((call) => call.toolName)).toEqual(['lookup_order', 'policy_check']);
  });

  it("never writes, without recordContent, the name of a tool the model made up, not even in a loop's report", async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path);
    const madeUp = 'jane.doe@example.com 4111 1111 1111 1111';
    const provider = scriptedModel([...Array.from({ length: 6 }, () => ({ toolCalls: [{ name: madeUp, arguments: {} }] })), 'stopped']);
    const agent = Agent.create({ provider, model: 'm' }).use(trace).build();
    await agent.run('hello').catch(() => undefined);
    await trace.flush();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('jane.doe');
    expect(text).not.toContain('4111');
    expect(text).toContain('"errorCode":"unknown-tool"');
  });

  it('replaces secrets: credential shapes, secret-named environment variables and the secrets given', async () => {
    const path = join(folder(), 'runs.jsonl');
    process.env.DEVTOOLS_TEST_API_KEY = 'env-secret-value-123456';
    try {
      const trace = fileTrace(path, { recordContent: true, secrets: ['hunter2-password'] });
      const provider = scriptedModel('Use sk-ant-api03-abcdefghijklmnop or env-secret-value-123456 with hunter2-password, Bearer abcdefghijklmnopqrstuvwxyz');
      await Agent.create({ provider, model: 'm' }).use(trace).build().run('my key is sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345');
      await trace.flush();
    } finally {
      delete process.env.DEVTOOLS_TEST_API_KEY;
    }
    const text = readFileSync(path, 'utf8');
    for (const secret of ['sk-ant-api03', 'env-secret-value', 'hunter2', 'sk-proj-ABC', 'abcdefghijklmnopqrstuvwxyz']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

});

describe('fileTrace: writing', () => {
  it('keeps every line whole when many runs and two traces write to one file at once', async () => {
    const path = join(folder(), 'runs.jsonl');
    const first = fileTrace(path, { recordContent: true });
    const second = fileTrace(path, { recordContent: true });
    const long = 'x'.repeat(20_000);
    const agent = (trace: typeof first) => Agent.create({ provider: scriptedModel(long), model: 'm' }).use(trace).build();
    const [a, b] = [agent(first), agent(second)];
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 ? a : b).run(`question ${index}`)));
    await Promise.all([first.flush(), second.flush()]);
    const lines = readTrace(path);
    for (const result of results) {
      expectEachEntryOnce(lines, result.runId);
      expect(entriesOf(lines, result.runId).map((entry) => entry.type)).toEqual(['input', 'answer', 'end']);
    }
    expect(lines.filter((line) => line.type === 'end').every((line) => (line.end as { text: string }).text === long)).toBe(true);
  });

  it('writes a suspended run and its resume under one run id, each entry once: the resume adds only its new entries', async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path);
    const result = await recordApprovalRun(trace);
    await trace.flush();
    const lines = readTrace(path);
    expectEachEntryOnce(lines, result.runId);
    const types = entriesOf(lines, result.runId).map((entry) => entry.type);
    expect(types.slice(types.indexOf('suspension'), types.indexOf('suspension') + 2)).toEqual(['suspension', 'resume']);
    expect(types.at(-1)).toBe('end');
  });

  it('writes lines a second after the first without flush(), and every line of runs that never yield to the event loop', async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path);
    const reports: string[] = [];
    const agent = Agent.create({ provider: scriptedModel(Array.from({ length: 600 }, () => 'ok')), model: 'm' })
      .use(trace)
      .on('listener.error', (event) => void reports.push(event.message))
      .build();
    for (let index = 0; index < 600; index++) await agent.run(`question ${index}`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reports).toEqual([]);
    expect(readTrace(path).filter((line) => line.type === 'end')).toHaveLength(600);
  });

  it('never breaks or changes a run when the file cannot be written: the failure is a listener.error', async () => {
    const path = join(folder(), 'is-a-folder');
    mkdirSync(path);
    const trace = fileTrace(path);
    const reports: { errorName: string; message: string }[] = [];
    const agent = Agent.create({ provider: scriptedModel(['fine', 'again']), model: 'm' })
      .use(trace)
      .on('listener.error', (event) => void reports.push(event))
      .build();
    const result = await agent.run('hello');
    expect(result.status).toBe('complete');
    expect(result.text).toBe('fine');
    await trace.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reports.map((report) => report.errorName)).toEqual(['DevtoolsError']);
    expect(reports[0]?.message).toContain('could not be written');
    expect(reports[0]?.message).toContain(path);
    await agent.run('again');
    await trace.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reports.map((report) => report.errorName)).toEqual(['DevtoolsError', 'DevtoolsError']);
  });

  it('keeps lines while the file cannot be written, drops those beyond maxPendingEvents, and writes how many once it can', async () => {
    const directory = folder();
    writeFileSync(join(directory, 'blocker'), '');
    const path = join(directory, 'blocker', 'runs.jsonl');
    const trace = fileTrace(path, { maxPendingEvents: 10 });
    const agent = Agent.create({ provider: scriptedModel('ok'), model: 'm' }).use(trace).build();
    // 3 entries and 1 event a run: 40 lines, 10 kept.
    for (let index = 0; index < 10; index++) await agent.run('hi');
    await trace.flush();
    rmSync(join(directory, 'blocker'));
    await trace.flush();
    const lines = readTrace(path);
    // Also the listener.error lines of the failed writes, beyond the 40.
    expect(lines[0]).toMatchObject({ trace: { dropped: expect.any(Number) } });
    expect((lines[0]?.trace as { dropped: number } | undefined)?.dropped).toBeGreaterThanOrEqual(30);
    expect(lines).toHaveLength(11);
  });

  it('refuses bad options with a typed error', () => {
    expect(() => fileTrace('')).toThrow(DevtoolsError);
    expect(() => fileTrace('a\0b')).toThrow(/NUL/);
    expect(() => fileTrace('t.jsonl', { secrets: ['short'] })).toThrow(/8 characters/);
    expect(() => fileTrace('t.jsonl', { maxPendingEvents: 0 })).toThrow(/positive integer/);
    try {
      fileTrace(42 as unknown as string);
    } catch (error) {
      expect(DevtoolsError.isInstance(error) && [error.problem, error.option]).toEqual(['options', 'path']);
    }
  });
});

describe('fileTrace size', () => {
  it('writes at most 2 MB for a 100-step run with an 8 KB page a step, content included, growing linearly with the steps', async () => {
    const directory = folder();
    const sizeOf = async (steps: number) => {
      const path = join(directory, `${steps}.jsonl`);
      const trace = fileTrace(path, { recordContent: true });
      await recordPageRun(trace, steps);
      await trace.flush();
      return statSync(path).size;
    };
    const [small, large] = [await sizeOf(25), await sizeOf(100)];
    expect(large).toBeLessThan(2 * 1024 * 1024);
    expect(large).toBeLessThanOrEqual(4.5 * small);
  });
});
