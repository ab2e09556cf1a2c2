import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { DevtoolsOptionsError } from '../errors/devtools-options-error';
import { HOSTILE_ANSWER, HOSTILE_POLICY, recordApprovalRun, recordReAskRun } from '../testing/support-runs';
import { fileTrace } from './file-trace';

const folder = () => mkdtempSync(join(tmpdir(), 'keel-file-trace-'));
const linesOf = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { event: string; payload: Record<string, unknown> });

describe('fileTrace', () => {
  it("writes each run's record as its last line, after the events its record does not tell, with every field when recordContent is on", async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path, { recordContent: true });
    const result = await recordReAskRun(trace);
    await trace.flush();
    const lines = linesOf(path);
    const own = lines.filter((line) => line.payload.runId === result.runId);
    expect(own.filter((line) => line.event === 'run.record')).toHaveLength(1);
    expect(own.at(-1)?.event).toBe('run.record');
    expect(own.map((line) => line.event)).not.toContain('model.request');
    expect(own.filter((line) => line.event === 'reliability.retry').map((line) => line.payload.feedback)).toHaveLength(2);
    expect(own.find((line) => line.event === 'tool.re-ask')?.payload.feedback).toContain("'orderId'");
    expect(own.filter((line) => line.event === 'model.content')).toHaveLength(6);
    const record = own.at(-1)?.payload as { attempts: { purpose: string; status: string; rawOutput?: string }[]; toolCalls: { arguments?: string }[]; costUsd?: number };
    expect(record.attempts).toHaveLength(6);
    expect(record.attempts.some((attempt) => attempt.rawOutput === HOSTILE_ANSWER)).toBe(true);
    expect(record.toolCalls.some((call) => call.arguments?.includes('orderId'))).toBe(true);
    expect(record.costUsd).toBe(result.usage.costUsd);
    const child = lines.find((line) => line.event === 'run.record' && line.payload.parentRunId === result.runId);
    expect(child?.payload.parentToolCallId).toBe(result.toolCalls.find((call) => call.name === 'policy_check')?.id);
    // The run's own calls; the sub-agent's calls, which its result counts too, are in the sub-agent's record.
    const childAttempts = child?.payload.attempts as unknown[];
    expect(record.attempts.length + childAttempts.length).toBe(result.attempts.length);
    expect(lines.indexOf(child as never)).toBeLessThan(lines.indexOf(own.at(-1) as never));
    expect(readFileSync(path, 'utf8')).toContain('window.__pwned = 1');
  });

  it('writes no byte the model wrote without recordContent', async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path);
    await recordReAskRun(trace);
    await trace.flush();
    const text = readFileSync(path, 'utf8');
    expect(linesOf(path).map((line) => line.event)).not.toContain('model.content');
    for (const content of ['__pwned', 'not json', 'lots', 'A-1', 'orderId', 'refund it', 'policy agent']) expect(text).not.toContain(content);
    expect(text).toContain('"kind":"schema-retry"');
    expect(text).not.toContain(HOSTILE_ANSWER.slice(0, 8));
    expect(text).not.toContain(HOSTILE_POLICY.slice(0, 12));
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

  it('keeps every line whole when many runs and two agents write to one file at once', async () => {
    const path = join(folder(), 'runs.jsonl');
    const first = fileTrace(path, { recordContent: true });
    const second = fileTrace(path, { recordContent: true });
    const long = 'x'.repeat(20_000);
    const agent = (trace: typeof first) => Agent.create({ provider: scriptedModel(long), model: 'm' }).use(trace).build();
    const [a, b] = [agent(first), agent(second)];
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 ? a : b).run(`question ${index}`)));
    await Promise.all([first.flush(), second.flush()]);
    const lines = linesOf(path);
    for (const result of results) {
      const own = lines.filter((line) => line.payload.runId === result.runId).map((line) => line.event);
      expect(own).toEqual(['model.content', 'run.record']);
    }
    expect(lines.filter((line) => line.event === 'model.content').every((line) => String(line.payload.output).includes(long))).toBe(true);
  });

  it('never breaks or changes a run when the file cannot be written: the failure is a listener.error', async () => {
    const directory = folder();
    const path = join(directory, 'is-a-folder');
    mkdirSync(path);
    const trace = fileTrace(path);
    const reports: { event: string; errorName: string; message: string }[] = [];
    const agent = Agent.create({ provider: scriptedModel('fine'), model: 'm' })
      .use(trace)
      .on('listener.error', (event) => void reports.push(event))
      .build();
    const result = await agent.run('hello');
    expect(result.status).toBe('complete');
    expect(result.text).toBe('fine');
    await trace.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0]?.errorName).toBe('TraceWriteError');
    expect(reports[0]?.message).toContain('could not be written');
  });
});

describe('fileTrace', () => {
  it('reports a folder that cannot be made as a TraceWriteError naming the file, and flush() still settles', async () => {
    const directory = folder();
    writeFileSync(join(directory, 'a-file'), '');
    const path = join(directory, 'a-file', 'runs.jsonl');
    const trace = fileTrace(path);
    const reports: { errorName: string; message: string }[] = [];
    const agent = Agent.create({ provider: scriptedModel(['one', 'two']), model: 'm' })
      .use(trace)
      .on('listener.error', (event) => void reports.push(event))
      .build();
    expect((await agent.run('hello')).status).toBe('complete');
    await expect(trace.flush()).resolves.toBeUndefined();
    expect((await agent.run('again')).status).toBe('complete');
    await trace.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reports.map((report) => report.errorName)).toEqual(['TraceWriteError', 'TraceWriteError']);
    expect(reports[0]?.message).toContain(path);
  });

  it('writes every event of runs that never yield to the event loop', async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path);
    const reports: string[] = [];
    const agent = Agent.create({ provider: scriptedModel(Array.from({ length: 600 }, () => 'ok')), model: 'm' })
      .use(trace)
      .on('listener.error', (event) => void reports.push(event.message))
      .build();
    // 600 runs in one stretch of microtasks: written by the writing thread as they go.
    for (let index = 0; index < 600; index++) await agent.run(`question ${index}`);
    await trace.flush();
    expect(reports).toEqual([]);
    expect(linesOf(path).filter((line) => line.event === 'run.record')).toHaveLength(600);
  });

  it('records a suspended run and its resume under one run id', async () => {
    const path = join(folder(), 'runs.jsonl');
    const trace = fileTrace(path);
    const result = await recordApprovalRun(trace);
    await trace.flush();
    const own = linesOf(path).filter((line) => line.payload.runId === result.runId);
    expect(own.map((line) => line.event)).toEqual(['run.suspended', 'run.record', 'run.resumed', 'run.record']);
    expect(own.filter((line) => line.event === 'run.record').map((line) => line.payload.status)).toEqual(['suspended', 'ok']);
  });

  it('drops lines beyond maxPendingEvents and reports each dropped one, never more', async () => {
    const path = join(folder(), 'runs.jsonl');
    writeFileSync(path, '');
    const trace = fileTrace(path, { maxPendingEvents: 1 });
    const reports: string[] = [];
    const agent = Agent.create({ provider: scriptedModel('ok'), model: 'm' })
      .use(trace)
      .on('listener.error', (event) => void reports.push(event.message))
      .build();
    // 200 runs in one stretch of microtasks: the writing thread takes them at its own pace.
    for (let index = 0; index < 200; index++) await agent.run('hi');
    await trace.flush();
    await new Promise((resolve) => setImmediate(resolve));
    const records = linesOf(path).filter((line) => line.event === 'run.record').length;
    const dropped = reports.map((message) => Number(/(\d+) event\(s\) were dropped/.exec(message)?.[1] ?? 0)).reduce((sum, count) => sum + count, 0);
    expect(records).toBeGreaterThan(0);
    expect(records + dropped).toBe(200);
  });

  it('refuses bad options with a typed error', () => {
    expect(() => fileTrace('')).toThrow(DevtoolsOptionsError);
    expect(() => fileTrace('a\0b')).toThrow(/NUL/);
    expect(() => fileTrace('t.jsonl', { secrets: ['short'] })).toThrow(/8 characters/);
    expect(() => fileTrace('t.jsonl', { maxPendingEvents: 0 })).toThrow(/positive integer/);
    try {
      fileTrace(42 as unknown as string);
    } catch (error) {
      expect(DevtoolsOptionsError.isInstance(error) && error.option).toBe('path');
    }
  });
});
