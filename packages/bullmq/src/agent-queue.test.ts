import { queueFixture } from './testing/queue-fixture';
import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { redisMemory } from '@keel/redis';
import { Type } from '@sinclair/typebox';
import { Queue, QueueEvents } from 'bullmq';
import { assert, describe, expect, expectTypeOf, it } from 'vitest';
import { agentQueue } from './agent-queue';
import { createAgentWorker } from './create-agent-worker';
import { enqueueRun } from './enqueue-run';
import type { RunJobProgress, RunJobSummary, WorkerAgents } from './run-job';
import type { RunStreamPart } from './run-stream';

const fixture = queueFixture('jobs');
const { connection, queue } = fixture;


function worker<A extends WorkerAgents>(name: string, agents: A, prefix?: string) {
  const made = createAgentWorker({ connection: connection(), queue: name, agents, ...(prefix === undefined ? {} : { workerOptions: { prefix } }) });
  fixture.cleanup(() => made.close(true));
  return made;
}

/** A model that answers `answer to <question>`. */
const echoModel = () =>
  scriptedModel((request) => {
    const last = request.messages.at(-1);
    return `answer to ${last?.role === 'user' && typeof last.content === 'string' ? last.content : '?'}`;
  });

const Triage = Type.Object({ queue: Type.Union([Type.Literal('billing'), Type.Literal('tech')]), urgent: Type.Boolean() });

describe('a job id used again', () => {
  it('after the job was removed (removeOnComplete) is a new turn: both turns stay in memory', async () => {
    const { name, jobs, events } = await queue();
    worker(name, { assistant: Agent.create({ provider: echoModel(), model: 'm' }).memory(redisMemory({ redis: fixture.redis })).build() });
    const options = { agent: 'assistant', conversationId: 'customer-1', jobId: 'ticket-1', jobOptions: { removeOnComplete: true } } as const;
    const first = await enqueueRun(jobs, { ...options, input: 'first question' });
    const firstSummary = await first.waitUntilFinished(events, 10_000);
    expect(await jobs.getJob('ticket-1')).toBeUndefined();
    const second = await enqueueRun(jobs, { ...options, input: 'second question' });
    const secondSummary = await second.waitUntilFinished(events, 10_000);
    expect(secondSummary.runId).not.toBe(firstSummary.runId);
    expect((await redisMemory({ redis: fixture.redis }).load('customer-1')).map((message) => message.content)).toEqual([
      'first question',
      [{ type: 'text', text: 'answer to first question' }],
      'second question',
      [{ type: 'text', text: 'answer to second question' }],
    ]);
  });

  it('after obliterate, and in a queue of the same name under another prefix, is a new turn too', async () => {
    const memory = redisMemory({ redis: fixture.redis });
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(memory).build();
    const plain = await queue();
    worker(plain.name, { assistant: agent });
    const ask = async (jobs: Queue, events: QueueEvents, input: string) => (await enqueueRun(jobs, { agent: 'assistant', input, conversationId: 'c', jobId: 'same' })).waitUntilFinished(events, 10_000);
    await ask(plain.jobs, plain.events, 'one');
    await plain.jobs.obliterate({ force: true });
    await ask(plain.jobs, plain.events, 'two');
    // The same queue name and job id under another BullMQ prefix.
    const name = plain.name;
    const other = new Queue(name, { connection: connection(), prefix: 'tenant-b' });
    const otherEvents = new QueueEvents(name, { connection: connection(), prefix: 'tenant-b' });
    await otherEvents.waitUntilReady();
    fixture.cleanup(() => other.close(), () => otherEvents.close());
    worker(name, { assistant: agent }, 'tenant-b');
    await ask(other, otherEvents, 'three');
    expect((await memory.load('c')).filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['one', 'two', 'three']);
  });
});

describe('agentQueue', () => {
  it('types a job’s result by the agent it names, and waits for it', async () => {
    const { name, jobs } = await queue();
    const agents = {
      triage: Agent.create({ provider: scriptedModel('{ "queue": "billing", "urgent": true }'), model: 'm' }).outputSchema(Triage).build(),
      chat: Agent.create({ provider: scriptedModel('hello'), model: 'm' }).build(),
    };
    worker(name, agents);
    const runs = agentQueue<typeof agents>(jobs);
    fixture.cleanup(() => runs.close());
    const job = await runs.enqueue({ agent: 'triage', input: 'I was charged twice' });
    const summary = await runs.result(job, { timeoutMs: 10_000 });
    // @ts-expect-error: a summary has a value only once narrowed to `complete` (a suspended run has none)
    void summary.value;
    assert(summary.status === 'complete');
    expectTypeOf(summary.value).toEqualTypeOf<{ queue: 'billing' | 'tech'; urgent: boolean }>();
    expect(summary.value).toEqual({ queue: 'billing', urgent: true });
    const chat = await runs.result(await runs.enqueue({ agent: 'chat', input: 'hi' }), { timeoutMs: 10_000 });
    assert(chat.status === 'complete');
    expectTypeOf(chat.value).toEqualTypeOf<string>();
    expect(chat.value).toBe('hello');
    // @ts-expect-error: no agent of that name
    await expect(runs.enqueue({ agent: 'nobody', input: 'hi' }).then((unknownJob) => runs.result(unknownJob, { timeoutMs: 10_000 }))).rejects.toThrow(/no agent named "nobody"/);
  });

  it('returns the result of a job removed on completion: one enqueued here, and a streamed one read back later', async () => {
    const { name, jobs } = await queue();
    const agents = { chat: Agent.create({ provider: scriptedModel({ text: 'done', delayMs: 50 }), model: 'm' }).build() };
    worker(name, agents);
    const runs = agentQueue<typeof agents>(jobs);
    fixture.cleanup(() => runs.close());
    const job = await runs.enqueue({ agent: 'chat', input: 'hi', jobOptions: { removeOnComplete: true } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await jobs.getJob(String(job.id))).toBeUndefined();
    await expect(runs.result(job, { timeoutMs: 10_000 })).resolves.toMatchObject({ value: 'done' });
    // Another enqueuer (a fresh agentQueue, as after a restart) holding the streamed job's data.
    const streamed = await runs.enqueue({ agent: 'chat', input: 'hi', stream: true, jobOptions: { removeOnComplete: true } });
    await runs.result(streamed, { timeoutMs: 10_000 });
    const later = agentQueue<typeof agents>(jobs);
    fixture.cleanup(() => later.close());
    await expect(later.result(streamed, { timeoutMs: 10_000 })).resolves.toMatchObject({ value: 'done' });
  });
});

describe('agentQueue', () => {
  it('streams a job’s run to the enqueuer with for await: its parts in order, then the typed result', async () => {
    const { name, jobs } = await queue();
    const lookup = tool({ name: 'lookup', description: 'Looks an order up.', input: Type.Object({ id: Type.Integer() }), execute: ({ id }) => ({ id, paid: true }) });
    const model = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 7 } }] }, '{ "queue": "billing", "urgent": false }']);
    const agents = { triage: Agent.create({ provider: model, model: 'm' }).tool(lookup).outputSchema(Triage) };
    worker(name, agents);
    const runs = agentQueue<typeof agents>(jobs);
    fixture.cleanup(() => runs.close());
    const job = await runs.enqueue({ agent: 'triage', input: 'order 7 charged twice', stream: true });
    const parts: RunStreamPart<{ queue: 'billing' | 'tech'; urgent: boolean }>[] = [];
    for await (const part of runs.stream(job)) parts.push(part);
    const types = parts.map((part) => part.type);
    expect(types[0]).toBe('attempt-start');
    // The parts that frame the run, in order (text deltas and partial outputs come between them).
    const framing = new Set(['attempt-start', 'step-start', 'tool-call', 'tool-result', 'step-end', 'result']);
    expect(types.filter((type) => framing.has(type))).toEqual([
      'attempt-start',
      'step-start',
      'tool-call',
      'tool-result',
      'step-end',
      'step-start',
      'step-end',
      'result',
    ]);
    const last = parts.at(-1);
    expect(last?.type === 'result' && last.summary.status === 'complete' && last.summary.value).toEqual({ queue: 'billing', urgent: false });
    // A stream opened after the job ended reads it all again, from the start.
    const again: string[] = [];
    for await (const part of runs.stream(job)) again.push(part.type);
    expect(again).toEqual(types);
  });

  it('streams a failure: the job’s reason, then the end, without retries for a permanent one', async () => {
    const { name, jobs } = await queue();
    const agents = { chat: Agent.create({ provider: scriptedModel(Object.assign(new Error('bad key'), { status: 401 })), model: 'm' }).build() };
    worker(name, agents);
    const runs = agentQueue<typeof agents>(jobs);
    fixture.cleanup(() => runs.close());
    const job = await runs.enqueue({ agent: 'chat', input: 'hi', stream: true });
    const parts: RunStreamPart<string>[] = [];
    for await (const part of runs.stream(job)) parts.push(part);
    expect(parts.at(-1)).toEqual({ type: 'failed', reason: expect.stringMatching(/^auth/), retrying: false });
    await expect(runs.result(job, { timeoutMs: 10_000 })).rejects.toThrow(/^auth/);
  });

  it('ends the stream of a job that was not streamed with its result, and stops on abort', async () => {
    const { name, jobs } = await queue();
    const agents = { chat: Agent.create({ provider: scriptedModel({ text: 'slow', delayMs: 300 }), model: 'm' }).build() };
    worker(name, agents);
    const runs = agentQueue<typeof agents>(jobs);
    fixture.cleanup(() => runs.close());
    const plain = await runs.enqueue({ agent: 'chat', input: 'hi' });
    const parts: string[] = [];
    for await (const part of runs.stream(plain)) parts.push(part.type === 'result' ? `result ${part.summary.status === 'complete' ? part.summary.value : part.summary.status}` : part.type);
    expect(parts).toEqual(['result slow']);
    const controller = new AbortController();
    const waiting = await runs.enqueue({ agent: 'chat', input: 'hi', stream: true, jobOptions: { delay: 60_000 } });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(
      (async () => {
        for await (const _part of runs.stream(waiting, { signal: controller.signal })) {
          // Nothing comes: the job waits a minute.
        }
      })(),
    ).rejects.toMatchObject({ name: 'AbortedError' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('a run stream holding what no worker wrote', () => {
  it('fails the reader with an error naming the key, instead of skipping or crashing on JSON', async () => {
    const { name, jobs } = await queue();
    const agents = { chat: Agent.create({ provider: scriptedModel('hi'), model: 'm' }).build() };
    const runs = agentQueue<typeof agents>(jobs);
    fixture.cleanup(() => runs.close());
    const job = await runs.enqueue({ agent: 'chat', input: 'hi', stream: true, jobOptions: { delay: 60_000 } });
    const key = `bull:${name}:keel-stream:${job.id}:${job.data.runKey}`;
    await fixture.redis.xadd(key, '*', 'part', '{not json');
    const reading = (async () => {
      for await (const _part of runs.stream(job)) {
        // The first entry is refused.
      }
    })();
    await expect(reading).rejects.toThrow(key);
  });
});

describe('job progress', () => {
  it('sends every event in order, each counted once: steps, tool re-asks, tool results, retries', async () => {
    const { name, jobs, events } = await queue();
    const lookup = tool({ name: 'lookup', description: 'Looks up.', input: Type.Object({ id: Type.Integer() }), execute: async ({ id }) => id });
    const model = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 'seven' } }] },
      { toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 7 } }] },
      Object.assign(new Error('overloaded'), { status: 529 }),
      'done',
    ]);
    worker(name, { assistant: Agent.create({ provider: model, model: 'm' }).tool(lookup).build() });
    const progress: RunJobProgress[] = [];
    events.on('progress', ({ data }) => void progress.push(data as RunJobProgress));
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'go' });
    const summary = (await job.waitUntilFinished(events, 10_000)) as RunJobSummary;
    expect(summary.text).toBe('done');
    while (progress.length < 7 && progress.at(-1)?.last !== 'step-end') await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(progress.map((update) => [update.events, update.last, update.step])).toEqual([
      [1, 'step-start', 1],
      [2, 'tool-re-ask', 1],
      [3, 'tool-result', 1],
      [4, 'step-end', 1],
      [5, 'step-start', 2],
      [6, 'retry', 2],
      [7, 'step-end', 2],
    ]);
    expect(progress.at(-1)).toEqual({ step: 2, retries: 1, toolCalls: 1, toolReAsks: 1, events: 7, last: 'step-end' });
  });
});

describe('a memory key Keel did not write', () => {
  it('fails the job once, for good, naming the key: no re-run of the whole agent', async () => {
    const { name, jobs, events } = await queue();
    const model = echoModel();
    worker(name, { assistant: Agent.create({ provider: model, model: 'm' }).memory(redisMemory({ redis: fixture.redis })).build() });
    await fixture.redis.set('keel:memory:{customer-1}:order', 'not a list');
    const job = await enqueueRun(jobs, { agent: 'assistant', input: 'hi', conversationId: 'customer-1', jobOptions: { attempts: 3, backoff: 0 } });
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/MemoryStoreError.*keel:memory:\{customer-1\}:order/);
    expect((await jobs.getJob(job.id as string))?.attemptsMade).toBe(1);
    expect(model.calls).toBe(0);
    expect(await fixture.redis.exists('keel:memory:{customer-1}:lease')).toBe(0);
  });
});
