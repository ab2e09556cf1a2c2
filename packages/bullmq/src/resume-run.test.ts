import { queueFixture } from './testing/queue-fixture';
import { redisMemory } from '@keel/redis';
import type { Queue, QueueEvents } from 'bullmq';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { startWorkerProcess, type WorkerProcess } from '../../redis/src/testing/worker-process';
import { createAgentWorker } from './create-agent-worker';
import { enqueueRun } from './enqueue-run';
import { resumeRun } from './resume-run';
import type { RunJob, RunJobData, RunJobSummary } from './run-job';
import { approvalAgent } from './testing/approval-agent';

const fixture = queueFixture('approvals');
const { connection, queue } = fixture;
const processes: WorkerProcess[] = [];
afterEach(async () => {
  // Registered after the fixture's: the worker processes are killed before its queues close.
  for (const child of processes.splice(0)) {
    child.child.kill('SIGKILL');
    await child.exited;
  }
});


/** A job that suspends at the refund, run by a worker in this process (closed afterwards). */
async function suspendedJob(name: string, jobs: Queue, events: QueueEvents) {
  const made = createAgentWorker({ connection: connection(), queue: name, agents: { payments: approvalAgent(fixture.redis).agent } });
  const job = await enqueueRun(jobs, { agent: 'payments', input: 'Refund 40 on A-1', conversationId: 'customer-7', tenant: 'acme' });
  const summary = (await job.waitUntilFinished(events, 10_000)) as RunJobSummary<string>;
  await made.close();
  if (summary.status !== 'suspended') throw new Error(`the job should have suspended, it completed: ${summary.text}`);
  return summary;
}

/** A worker in its own process, ready to take jobs. */
async function workerProcess(name: string, answerDelayMs = 0, mode?: 'die-after-claim') {
  const child = startWorkerProcess(new URL('./testing/approval-worker-process.ts', import.meta.url), [String(fixture.server.port), name, String(answerDelayMs), ...(mode ? [mode] : [])]);
  processes.push(child);
  await child.waitFor((message) => (message as { event?: string }).event === 'ready');
  return child;
}

const memoryOf = (conversationId: string) => redisMemory({ redis: fixture.redis }).load(conversationId);

describe('approvals through @keel/bullmq', () => {
  it('a job that suspends completes with the state; resumeRun continues it on another worker process', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);

    expect(summary).toMatchObject({ status: 'suspended', pendingApprovals: [{ toolCallId: 'c1', toolName: 'refund', arguments: { orderId: 'A-1', amount: 40 } }] });
    expect('value' in summary).toBe(false);
    expect(summary.suspended).toMatchObject({ agent: 'payments', tenant: 'acme', state: { type: 'keel.run-state', runId: summary.runId } });
    expect(await fixture.redis.get('test:executions')).toBeNull();
    expect(await memoryOf('customer-7')).toEqual([]);

    await workerProcess(name);
    const job = await resumeRun(jobs, JSON.parse(JSON.stringify(summary.suspended)) as typeof summary.suspended, { approve: ['c1'] });
    // The continuation is typed by the suspended run's output: its summary's value is the agent's.
    expectTypeOf(job).toEqualTypeOf<RunJob<string>>();
    const resumed = (await job.waitUntilFinished(events, 20_000));
    expectTypeOf(resumed).toEqualTypeOf<RunJobSummary<string>>();
    // @ts-expect-error: the continuation may suspend again: its value needs narrowing on `status`
    void resumed.value;
    if (resumed.status === 'complete') expectTypeOf(resumed.value).toEqualTypeOf<string>();

    expect(resumed).toMatchObject({ status: 'complete', text: 'Refunded.', runId: summary.runId, tenant: 'acme', steps: 2, attempts: 2 });
    expect(resumed.usage.modelCalls).toBe(2);
    expect(await fixture.redis.get('test:executions')).toBe('1');
    expect(await fixture.redis.get('test:refunded:A-1')).toBe('40');
    expect((await memoryOf('customer-7')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('rejected through the queue, the model sees the reason and nothing runs', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);
    await workerProcess(name);

    const job = await resumeRun(jobs, summary.suspended, { reject: [{ id: 'c1', reason: 'customer already refunded' }] });
    const resumed = (await job.waitUntilFinished(events, 20_000)) as RunJobSummary;

    expect(resumed.text).toMatch(/^Not refunded: Error \[approval-rejected\].*customer already refunded/);
    expect(await fixture.redis.get('test:executions')).toBeNull();
  });

  it('an edited state fails the job for good and runs nothing', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);
    await workerProcess(name);
    const edited = JSON.parse(JSON.stringify(summary.suspended)) as { state: { pending: { arguments: { amount: number } }[] } };
    (edited.state.pending[0] as { arguments: { amount: number } }).arguments.amount = 4_000;

    const job = await resumeRun(jobs, edited as never, { approve: ['c1'] });
    const failure = await job.waitUntilFinished(events, 20_000).catch((error: unknown) => error);

    expect(String(failure)).toMatch(/RunStateError: Cannot resume the run: the state's signature does not match/);
    expect(await fixture.redis.get('test:executions')).toBeNull();
    const failed = await jobs.getJob(String(job.id));
    expect(failed?.attemptsMade).toBe(1);
  });

  it('resumeRun twice for one state adds one job while it exists', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);
    const suspended = summary.suspended;

    const first = await resumeRun(jobs, suspended, { approve: ['c1'] });
    const second = await resumeRun(jobs, JSON.parse(JSON.stringify(suspended)), { approve: ['c1'] });
    expect(second.id).toBe(first.id);
    await workerProcess(name);
    await first.waitUntilFinished(events, 20_000);

    // The suspended job and one continuation.
    expect(await jobs.getJobCounts('completed', 'waiting', 'failed')).toMatchObject({ completed: 2, waiting: 0, failed: 0 });
    expect(await fixture.redis.get('test:executions')).toBe('1');
  });
});

describe('approvals through @keel/bullmq', () => {
  it('two workers resuming one state at once: the approved call runs once, memory keeps one exchange', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);
    const suspended = summary.suspended;
    // Two continuations of one state under different job ids (past resumeRun's deduplication), in two processes.
    const data: RunJobData = { agent: 'payments', input: '', tenant: 'acme', resume: { state: suspended.state, decisions: { approve: ['c1'] } } };
    await Promise.all([workerProcess(name, 300), workerProcess(name, 300)]);
    const added = await Promise.all([jobs.add('payments', data, { jobId: 'twin-a' }), jobs.add('payments', data, { jobId: 'twin-b' })]);
    const outcomes = await Promise.allSettled(added.map((job) => job.waitUntilFinished(events, 20_000)));

    // The run store spends the state once across the two processes: one job ran the call, the other was refused.
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected' && /resumed already/.test(String(outcome.reason))).length;
    expect(refused).toBe(1);
    expect(await fixture.redis.get('test:executions')).toBe('1');
    expect(await fixture.redis.get('test:refunded:A-1')).toBe('40');
    expect((await memoryOf('customer-7')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(outcomes.some((outcome) => outcome.status === 'fulfilled')).toBe(true);
  });

  it('one stored approval resumed in three processes, one after another and then at once, runs the call once', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);
    const data: RunJobData = { agent: 'payments', input: '', tenant: 'acme', resume: { state: summary.suspended.state, decisions: { approve: ['c1'] } } };
    await Promise.all([workerProcess(name), workerProcess(name), workerProcess(name)]);
    const outcomes: PromiseSettledResult<unknown>[] = [];
    for (const id of ['one', 'two', 'three']) outcomes.push(...(await Promise.allSettled([(await jobs.add('payments', data, { jobId: `seq-${id}` })).waitUntilFinished(events, 20_000)])));
    const together = await Promise.all(['a', 'b', 'c'].map((id) => jobs.add('payments', data, { jobId: `par-${id}` })));
    outcomes.push(...(await Promise.allSettled(together.map((job) => job.waitUntilFinished(events, 20_000)))));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await fixture.redis.get('test:executions')).toBe('1');
  });

  it('refuses a summary handed to another tenant, and a worker with two agent names of the same definition, before anything runs', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);
    const suspended = summary.suspended;
    const single = createAgentWorker({ connection: connection(), queue: name, agents: { payments: approvalAgent(fixture.redis).agent } });
    try {
      const otherTenant = await resumeRun(jobs, { ...suspended, tenant: 'globex' }, { approve: ['c1'] });
      expect(String(await otherTenant.waitUntilFinished(events, 20_000).catch((error: unknown) => error))).toMatch(/made for another tenant/);
    } finally {
      await single.close();
    }
    // Two names of one definition are refused when the worker is made, before any human is asked to approve.
    expect(() => createAgentWorker({ connection: connection(), queue: name, agents: { payments: approvalAgent(fixture.redis).agent, globex: approvalAgent(fixture.redis).agent } })).toThrow(
      /"payments" and "globex" have the same agent id \(their ids are derived from the same tools and output schema\)/,
    );
    expect(await fixture.redis.get('test:executions')).toBeNull();
  });

  it('a resume job killed after it claimed the suspension, before its first checkpoint, then failed as stalled, is resumed by resumeRun again: the refund runs once', async () => {
    const { name, jobs, events } = await queue();
    const summary = await suspendedJob(name, jobs, events);
    const doomed = await workerProcess(name, 0, 'die-after-claim');
    const first = await resumeRun(jobs, summary.suspended, { approve: ['c1'] });
    // The worker claims the suspension in the run store and dies there (SIGKILL): nothing of the resume ran.
    await doomed.exited;
    expect(await fixture.redis.exists(`keel:claim:{suspension:${summary.suspended.state.suspensionId}}`)).toBe(1);
    // The stall check of the worker that made the suspended job would wait its 30 s: checked at once here.
    await fixture.redis.del(`bull:${name}:stalled-check`);
    // A worker that fails a stalled job at once (maxStalledCount 0): the resume job ends failed, its suspension claimed.
    const survivor = createAgentWorker({ connection: connection(), queue: name, agents: { payments: approvalAgent(fixture.redis).agent }, workerOptions: { lockDuration: 1_000, stalledInterval: 250, maxStalledCount: 0 } });
    try {
      expect(String(await first.waitUntilFinished(events, 20_000).catch((error: unknown) => error))).toMatch(/stalled/);
      expect(await fixture.redis.get('test:executions')).toBeNull();
      // Resumed again with the same decisions: the failed job runs again, takes the dead claim over, and the run goes on.
      const again = await resumeRun(jobs, summary.suspended, { approve: ['c1'] });
      const finished = (await again.waitUntilFinished(events, 20_000)) as RunJobSummary<string>;
      expect([finished.status, finished.text]).toEqual(['complete', 'Refunded.']);
      expect(await fixture.redis.get('test:executions')).toBe('1');
      expect(await fixture.redis.get('test:refunded:A-1')).toBe('40');
      expect((await memoryOf('customer-7')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      // Resuming the state again gives the completed job, never a second refund.
      const third = await resumeRun(jobs, summary.suspended, { approve: ['c1'] });
      expect(third.id).toBe(again.id);
      expect(((await third.waitUntilFinished(events, 20_000)) as RunJobSummary<string>).status).toBe('complete');
      expect(await fixture.redis.get('test:executions')).toBe('1');
    } finally {
      await survivor.close();
    }
  }, 90_000);

  it('refuses what is not a suspended job', async () => {
    const { jobs } = await queue();
    await expect(resumeRun(jobs, {} as never, { approve: [] })).rejects.toThrow(/resumeRun: give the `suspended` value/);
    await expect(resumeRun(jobs, { agent: 'payments', state: { suspensionId: 'a:b' } } as never, { approve: [] })).rejects.toThrow(TypeError);
  });
});
