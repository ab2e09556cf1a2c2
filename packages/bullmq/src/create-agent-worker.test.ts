import { queueFixture } from './testing/queue-fixture';
import { Agent, type AgentBuilder, tool } from '@keel/core';
import { Type } from '@sinclair/typebox';
import { scriptedModel } from '@keel/core/test';
import { redisMemory } from '@keel/redis';
import { describe, expect, it } from 'vitest';
import { startWorkerProcess, type WorkerProcess } from '../../redis/src/testing/worker-process';
import { cancelRun } from './cancel-run';
import { type AgentWorker, createAgentWorker } from './create-agent-worker';
import { enqueueRun } from './enqueue-run';
import type { RunJobProgress, RunJobSummary, WorkerAgent } from './run-job';

const fixture = queueFixture('runs');
const { connection, queue } = fixture;


function worker(name: string, agents: Record<string, WorkerAgent>, options: Partial<Parameters<typeof createAgentWorker>[0]> = {}): AgentWorker {
  const made = createAgentWorker({ connection: connection(), queue: name, agents, ...options });
  fixture.cleanup(() => made.close(true));
  return made;
}

const rateLimited = () => Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfterMs: 1 });

describe('createAgentWorker and enqueueRun', () => {
  it('runs a job and returns a JSON summary of the run; progress comes from the run', async () => {
    const { name, jobs, events } = await queue();
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { id: 7 } }] }, '{"answer": 42}']);
    const lookup = tool({
      name: 'lookup',
      description: 'looks a thing up',
      input: Type.Object({ id: Type.Number() }),
      execute: async () => 'found',
    });
    let streamed = 0;
    const stream = model.stream as NonNullable<typeof model.stream>;
    const provider = { ...model, generate: model.generate, stream: (...args: Parameters<typeof stream>) => (streamed++, stream(...args)) };
    // A builder: the worker builds it; runs use run(), not stream().
    const agent = Agent.create({ provider, model: 'm' })
      .tool(lookup)
      .outputSchema({ parse: (value: unknown) => value as { answer: number } });
    worker(name, { assistant: agent as AgentBuilder<unknown> });
    const progress: RunJobProgress[] = [];
    events.on('progress', ({ data }) => void progress.push(data as RunJobProgress));
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'what is it?', tenant: 'acme', jobId: 'job-1' });
    const summary = (await job.waitUntilFinished(events, 10_000)) as RunJobSummary;
    expect(summary).toMatchObject({
      runId: expect.stringMatching(new RegExp(`^bull:${name}:job-1:[0-9a-f-]{36}$`)),
      value: { answer: 42 },
      text: '{"answer": 42}',
      provenance: 'model',
      attempts: 2,
      steps: 2,
      finishReason: 'stop',
      tenant: 'acme',
    });
    expect(summary.usage.modelCalls).toBe(2);
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
    expect(progress.at(-1)).toMatchObject({ step: 2, toolCalls: 1, toolReAsks: 0, last: 'step-end' });
    expect(streamed).toBe(0);
    // Enqueueing the same job id again adds nothing.
    await enqueueRun(jobs, { agent: 'assistant', input: 'again', jobId: 'job-1' });
    expect(await jobs.getJobCounts('completed', 'wait', 'active')).toEqual({ completed: 1, wait: 0, active: 0 });
  });

  it('reports progress for a built agent too: retries included, without streaming', async () => {
    const { name, jobs, events } = await queue();
    const model = scriptedModel([Object.assign(new Error('busy'), { status: 529 }), 'done']);
    let streamed = 0;
    const stream = model.stream as NonNullable<typeof model.stream>;
    const provider = { ...model, generate: model.generate, stream: (...args: Parameters<typeof stream>) => (streamed++, stream(...args)) };
    worker(name, { assistant: Agent.create({ provider, model: 'm' }).build() });
    const progress: RunJobProgress[] = [];
    events.on('progress', ({ data }) => void progress.push(data as RunJobProgress));
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'hi' });
    const summary = (await job.waitUntilFinished(events, 10_000)) as RunJobSummary;
    expect(summary).toMatchObject({ text: 'done', attempts: 2, steps: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(progress.at(-1)).toMatchObject({ step: 1, retries: 1, last: 'step-end' });
    expect(streamed).toBe(0);
  });

  it('fails a non-transient failure for good, with its kind, whatever the job’s attempts', async () => {
    const { name, jobs, events } = await queue();
    const model = scriptedModel(Object.assign(new Error('bad key'), { status: 401 }));
    worker(name, { assistant: Agent.create({ provider: model, model: 'm' }).build() });
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'hi', jobOptions: { attempts: 3, backoff: 0 } });
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/^auth \(unhandled-failure\)/);
    const failed = await jobs.getJob(job.id as string);
    expect(failed?.attemptsMade).toBe(1);
    expect(model.calls).toBe(1);
  });
});

describe('createAgentWorker and enqueueRun', () => {
  it('lets BullMQ retry a transient failure within the job’s attempts', async () => {
    const { name, jobs, events } = await queue();
    let calls = 0;
    // Three 429s exhaust the run's own retries (1 + 2); the job's second attempt then succeeds.
    const model = scriptedModel(() => (++calls <= 3 ? rateLimited() : 'done'));
    worker(name, { assistant: Agent.create({ provider: model, model: 'm' }).build() });
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'hi', jobOptions: { attempts: 2, backoff: 0 } });
    const summary = (await job.waitUntilFinished(events, 10_000)) as RunJobSummary;
    expect(summary.text).toBe('done');
    expect((await jobs.getJob(job.id as string))?.attemptsMade).toBe(2);
  });

  it('fails a job whose agent is unknown, unretried', async () => {
    const { name, jobs, events } = await queue();
    worker(name, { assistant: Agent.create({ provider: scriptedModel('hi'), model: 'm' }).build() });
    const job = await enqueueRun(jobs, { agent: 'nobody', input: 'hi' });
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/no agent named "nobody"/);
    expect((await jobs.getJob(job.id as string))?.attemptsMade).toBe(1);
  });

  it('cancelling a running job aborts its run through the signal; the job fails unretried', async () => {
    const { name, jobs, events } = await queue();
    let aborted = false;
    const model = scriptedModel(async (_request) => ({ text: 'late', delayMs: 30_000 }));
    const provider = {
      ...model,
      generate: (request: Parameters<typeof model.generate>[0], options: Parameters<typeof model.generate>[1]) => {
        options.signal?.addEventListener('abort', () => (aborted = true));
        return model.generate(request, options);
      },
    };
    delete (provider as { stream?: unknown }).stream;
    worker(name, { assistant: Agent.create({ provider, model: 'm' }).build() });
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'hi' });
    while ((await job.getState()) !== 'active' || model.calls === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    expect(await cancelRun(jobs, job.id as string, 'user asked')).toBe('signalled');
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/^cancelled/);
    // The model would answer after 30 s: the run stopped because the signal reached it.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(aborted).toBe(true);
    expect((await jobs.getJob(job.id as string))?.attemptsMade).toBe(1);
    // A job not yet taken is simply removed.
    const waiting = await enqueueRun(jobs, { agent: 'assistant', input: 'later', jobOptions: { delay: 60_000 } });
    expect(await cancelRun(jobs, waiting.id as string)).toBe('removed');
    expect(await cancelRun(jobs, 'missing')).toBe('not-found');
  }, 30_000);

  it('a SIGKILLed worker’s job completes on another worker, with exactly one exchange in memory', async () => {
    const { name, jobs, events } = await queue();
    const processes: WorkerProcess[] = [];
    fixture.cleanup(async () => {
      for (const process of processes) process.child.kill('SIGKILL');
    });
    const doomed = startWorkerProcess(new URL('./testing/agent-worker-process.ts', import.meta.url), [String(fixture.server.port), name, '5000']);
    processes.push(doomed);
    await doomed.waitFor((message) => (message as { event: string }).event === 'ready');
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'survive this', conversationId: 'crash', jobId: 'crash-1' });
    await doomed.waitFor((message) => (message as { event: string }).event === 'active');
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');

    const survivor = startWorkerProcess(new URL('./testing/agent-worker-process.ts', import.meta.url), [String(fixture.server.port), name, '50']);
    processes.push(survivor);
    const summary = (await job.waitUntilFinished(events, 20_000)) as RunJobSummary;
    expect(summary.text).toBe('answer to survive this');
    await survivor.waitFor((message) => (message as { event: string; jobId?: string }).event === 'completed' && (message as { jobId?: string }).jobId === 'crash-1');
    const kept = await redisMemory({ redis: fixture.redis }).load('crash');
    expect(kept).toEqual([
      { role: 'user', content: 'survive this' },
      { role: 'assistant', content: [{ type: 'text', text: 'answer to survive this' }] },
    ]);
  }, 30_000);
});
