import type { Message } from '@keel/core';
import { redisMemory } from '@keel/redis';
import { describe, expect, it } from 'vitest';
import { seededRandom, startedWorkers } from '../../redis/src/testing/started-workers';
import { startWorkerProcess, type WorkerProcess } from '../../redis/src/testing/worker-process';
import { enqueueRun } from './enqueue-run';
import { resumeRun } from './resume-run';
import type { RunJob, RunJobSummary, SuspendedRunJobSummary } from './run-job';
import { queueFixture } from './testing/queue-fixture';

const fixture = queueFixture('durable');
const started = startedWorkers();

const RUNS = 50;
const KILLS = 3;

function worker(queue: string): WorkerProcess {
  const process = startWorkerProcess(new URL('./testing/durable-worker-process.ts', import.meta.url), [String(fixture.server.port), queue, '10']);
  started.push(process);
  return process;
}

const isEvent = (event: string) => (message: unknown) => (message as { event?: string }).event === event;

describe('durable agents on BullMQ: workers killed with SIGKILL', () => {
  it('50 runs, workers killed at random points: each run recovered on another process ends complete or suspended on an unknown outcome; no effect twice, no turn lost or doubled', async () => {
    const { name, jobs, events } = await fixture.queue();
    const redis = fixture.redis;
    events.setMaxListeners(RUNS * 2);
    const seed = Number(process.env.KEEL_CRASH_SEED ?? Date.now() % 1_000_000);
    const next = seededRandom(seed);
    const added: RunJob[] = [];
    for (let order = 0; order < RUNS; order++) added.push(await enqueueRun(jobs, { agent: 'refunds', input: `refund order ${order}`, conversationId: `customer-${order}` }));

    const finished = Promise.all(added.map((job) => job.waitUntilFinished(events, 110_000))) as Promise<RunJobSummary<string>[]>;
    const allFinished = finished.then(() => 'finished' as const);
    // Each worker takes jobs ten at a time and is killed at a random point: after a random number
    // of its jobs completed, a random few milliseconds into the ones in flight.
    const killedAfter: string[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const doomed = worker(name);
      const completions = Math.floor(next() * 8);
      const reached = doomed.waitFor(() => doomed.messages.filter(isEvent('completed')).length >= completions && doomed.messages.some(isEvent('active')), 100_000);
      if ((await Promise.race([reached, allFinished])) === 'finished') break;
      const afterMs = Math.floor(next() * 150);
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      killedAfter.push(`${completions} jobs + ${afterMs} ms`);
    }
    // Another process recovers every run the killed ones left (BullMQ hands the stalled jobs over).
    worker(name);
    const summaries = await finished;

    const memory = redisMemory({ redis });
    const keptOf = async (conversationId: string): Promise<readonly Message[]> => {
      const run = { runId: `check-${conversationId}` };
      const kept = await memory.load(conversationId, run);
      await memory.release?.(conversationId, run);
      return kept;
    };
    const counter = async (key: string) => Number((await redis.get(key)) ?? 0);
    let interrupted = 0;
    let askedAgain = 0;
    let creditsRunAgain = 0;
    const suspended: SuspendedRunJobSummary<string>[] = [];
    for (const [order, summary] of summaries.entries()) {
      const job = await jobs.getJob(String(added[order]?.id));
      const starts = job?.attemptsStarted ?? 0;
      if (starts > 1) interrupted++;
      const key = (call: string) => `${summary.runId}:${call}`;
      // The idempotent credit: applied exactly once, however often it ran.
      expect(await counter(`test:credit-applied:${key('credit-1')}`)).toBe(1);
      creditsRunAgain += (await counter(`test:credit-runs:${key('credit-1')}`)) - 1;
      // The once email: never twice.
      const emails = await counter(`test:email:${key('email-1')}`);
      expect(emails).toBeLessThanOrEqual(1);
      // A question is asked again only by a run that was started again (it was in flight when the worker died).
      for (let step = 0; step < 3; step++) {
        const asked = await counter(`test:asked:${order}:${step}`);
        expect(asked).toBeLessThanOrEqual(starts);
        askedAgain += Math.max(0, asked - 1);
      }
      const kept = await keptOf(`customer-${order}`);
      if (summary.status === 'complete') {
        expect(summary.text).toBe(`Refunded order ${order}.`);
        expect(emails).toBe(1);
        expect(summary.usage.modelCalls).toBe(3);
        // One exchange: the message, two tool turns with their results, the answer.
        expect(kept.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
      } else {
        expect(summary.status).toBe('suspended');
        expect(summary.unknownOutcomes?.map((call) => call.toolCallId)).toEqual(['email-1']);
        expect(summary.pendingApprovals).toEqual([]);
        expect(kept).toEqual([]);
        suspended.push(summary);
      }
    }
    // A person settles each unknown outcome (the email went out when it was counted): the runs complete, memory gets each exchange once.
    for (const summary of suspended) {
      const sent = (await counter(`test:email:${summary.runId}:email-1`)) === 1;
      const continued = await resumeRun(jobs, summary.suspended, sent ? { outcomes: [{ id: 'email-1', result: 'sent' }] } : { retry: ['email-1'] });
      const resumed = (await continued.waitUntilFinished(events, 30_000)) as RunJobSummary<string>;
      expect(resumed.status).toBe('complete');
      expect(await counter(`test:email:${summary.runId}:email-1`)).toBe(1);
      const order = Number(resumed.text.replace(/\D/g, ''));
      expect((await keptOf(`customer-${order}`)).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    }
    console.log(
      JSON.stringify({ seed, runs: RUNS, kills: killedAfter.length, killedAfter, interrupted, complete: RUNS - suspended.length, suspendedOnUnknownOutcome: suspended.length, modelQuestionsAskedAgain: askedAgain, idempotentCallsRunAgain: creditsRunAgain }),
    );
    // Not vacuous: the kills interrupted runs in flight.
    expect(interrupted).toBeGreaterThan(0);
  }, 150_000);
});
