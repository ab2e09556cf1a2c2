import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent';
import { scriptedModel } from './scripted-model';
import { tool } from '../tools/tool';
import type { Message } from '@keel/provider';
import type { MemoryStore } from '../memory/memory-store';

/** Settings every shared memory store takes. */
export interface SharedMemorySettings {
  readonly leaseMs?: number;
  readonly maxWaitMs?: number;
  readonly concurrency?: 'serialize' | 'reject';
}

/** How the contract tests reach one shared memory store implementation and its server. */
export interface SharedMemoryHarness {
  /** A new store over the same server (another worker's, when called again). */
  memory(settings?: SharedMemorySettings): MemoryStore;
  /** Lets the lease a run holds on the conversation lapse now, as a blocked or paused holder's would. */
  expireLease(conversationId: string): Promise<void>;
  /** A store in a process about to die: after `crash()` it reaches the server no more, so its lease renewals stop. */
  crashable(settings: SharedMemorySettings): { readonly memory: MemoryStore; crash(): void | Promise<void> };
  /** Whether an error is the store's "conversation busy" error (retryable). */
  isBusy(error: unknown): boolean;
  /** Whether an error is the store's "lease lost" error (another run took the conversation). */
  isLeaseLost(error: unknown): boolean;
}

/** A model that answers `answer to <question>` after a short delay, so concurrent runs overlap. */
const echoModel = (delayMs = 5) =>
  scriptedModel((request) => {
    const last = [...request.messages].reverse().find((message) => message.role === 'user');
    return { text: `answer to ${typeof last?.content === 'string' ? last.content : '?'}`, delayMs };
  });

/** A tool input that takes no arguments. */
const EMPTY = { parse: (): Record<string, never> => ({}) };

/** Blocks this thread (the event loop with it) for `ms`, as a CPU-bound or synchronous tool would. */
const blockEventLoop = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * What every memory store shared by a fleet promises (`redisMemory`, `postgresMemory`): whole
 * exchanges, runs on one conversation serialised by a lease (or rejected), a lease renewed while
 * its run lives and expiring when its process dies, fencing that decides an append, one exchange
 * per run id.
 */
export function describeSharedMemory(name: string, harness: SharedMemoryHarness): void {
  describe(`${name} (shared memory contract)`, () => {
    describe('exchanges', () => exchangeTests(harness));
    describe('leases', () => leaseTests(harness));
    describe('fencing', () => fencingTests(harness));
  });
}

/** An agent on the scripted model with `memory`. */
const agentOn = (memory: MemoryStore, model = echoModel(0)) => Agent.create({ provider: model, model: 'm' }).memory(memory).build();

/** Whole exchanges, in order, one per run id, apart whatever the ids hold. */
function exchangeTests(harness: SharedMemoryHarness): void {
  it('keeps a conversation across runs and agents: each run sees the earlier exchanges', async () => {
    const memory = harness.memory();
    const model = echoModel(0);
    await agentOn(memory, model).run('one', { conversationId: 'c' });
    // Another agent (another worker, in a fleet) with its own store sees the same conversation.
    await agentOn(harness.memory(), model).run('two', { conversationId: 'c' });
    expect(model.requests[1]?.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: [{ type: 'text', text: 'answer to one' }] },
      { role: 'user', content: 'two' },
    ]);
    expect(await memory.load('c')).toHaveLength(4);
  });

  it('refuses ephemeral messages and stores nothing', async () => {
    const memory = harness.memory();
    const messages: Message[] = [{ role: 'user', content: 'kept' }, { role: 'user', content: 'feedback', ephemeral: true }];
    await expect(memory.append('c', messages)).rejects.toThrow(TypeError);
    expect(await memory.load('c')).toEqual([]);
  });

  it('serialize: 20 concurrent runs on 5 conversations leave each a clean sequence of whole exchanges', async () => {
    const model = echoModel(5);
    const agents = Array.from({ length: 4 }, () => agentOn(harness.memory(), model));
    await Promise.all(Array.from({ length: 20 }, (_, index) => (agents[index % 4] as (typeof agents)[number]).run(`q${index}`, { conversationId: `conversation-${index % 5}` })));
    const reader = harness.memory();
    for (let conversation = 0; conversation < 5; conversation++) {
      const messages = await reader.load(`conversation-${conversation}`);
      expect(messages).toHaveLength(8);
      const questions: string[] = [];
      for (let index = 0; index < messages.length; index += 2) {
        const question = messages[index] as Message;
        expect(question.role).toBe('user');
        questions.push(question.content as string);
        expect(messages[index + 1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: `answer to ${question.content as string}` }] });
      }
      expect(questions.sort()).toEqual([0, 1, 2, 3].map((round) => `q${conversation + round * 5}`).sort());
    }
    // Serialised: no two runs of a conversation read the same snapshot, so they saw 0, 1, 2, 3 earlier exchanges.
    const seen = new Map<string, number[]>();
    for (const request of model.requests) {
      const question = request.messages.at(-1)?.content as string;
      const conversation = `conversation-${Number(question.slice(1)) % 5}`;
      seen.set(conversation, [...(seen.get(conversation) ?? []), (request.messages.length - 1) / 2]);
    }
    for (const counts of seen.values()) expect(counts.sort()).toEqual([0, 1, 2, 3]);
  });

  it('reject: a run that finds the conversation in use fails with a retryable busy error', async () => {
    const memory = harness.memory({ concurrency: 'reject' });
    const agent = agentOn(memory, echoModel(100));
    const outcomes = await Promise.allSettled([agent.run('a', { conversationId: 'c' }), agent.run('b', { conversationId: 'c' })]);
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(harness.isBusy(rejected[0]?.reason)).toBe(true);
    expect(rejected[0]?.reason.retryable).toBe(true);
    expect(await memory.load('c')).toHaveLength(2);
  });

  it('stores one exchange per run id: a run made again replaces its exchange and does not see it', async () => {
    const memory = harness.memory();
    const model = echoModel(0);
    const agent = agentOn(memory, model);
    await agent.run('first', { conversationId: 'c', runId: 'job-1' });
    await agent.run('second', { conversationId: 'c', runId: 'job-2' });
    await agent.run('second', { conversationId: 'c', runId: 'job-2' });
    expect(model.requests[2]?.messages.map((message) => message.content)).toEqual(['first', [{ type: 'text', text: 'answer to first' }], 'second']);
    expect((await memory.load('c')).map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('keeps conversations apart whatever their ids hold', async () => {
    const memory = harness.memory();
    const ids = ['', '}support', '{support}', 'support', '#support', '{', 'x'.repeat(500), 'x'.repeat(499), 'ünï 🎉'];
    for (const id of ids) await memory.append(id, [{ role: 'user', content: `in ${JSON.stringify(id)}` }]);
    for (const id of ids) expect(await memory.load(id)).toEqual([{ role: 'user', content: `in ${JSON.stringify(id)}` }]);
  });

  it('keeps the leases of runs apart whatever their ids hold (a separator character in a conversation or run id)', async () => {
    const memory = harness.memory();
    await memory.load('a\u0000b', { runId: 'c' });
    await memory.load('a', { runId: 'b\u0000c' });
    await memory.append('a\u0000b', [{ role: 'user', content: 'one' }], { runId: 'c' });
    await memory.append('a', [{ role: 'user', content: 'two' }], { runId: 'b\u0000c' });
    expect(await memory.load('a\u0000b')).toEqual([{ role: 'user', content: 'one' }]);
    expect(await memory.load('a')).toEqual([{ role: 'user', content: 'two' }]);
  });
}

/** Leases: serialised or rejected runs, renewed while a run lives, let go when it ends, expiring when its process dies. */
function leaseTests(harness: SharedMemoryHarness): void {
  it('releases the lease when a run aborts, so the next run does not wait for its expiry', async () => {
    const memory = harness.memory({ leaseMs: 30_000, maxWaitMs: 1_000 });
    const controller = new AbortController();
    const aborted = agentOn(memory, echoModel(10_000)).run('slow', { conversationId: 'c', signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(aborted).rejects.toThrow();
    await agentOn(memory).run('fast', { conversationId: 'c' });
    expect(await memory.load('c')).toHaveLength(2);
  });

  it('renews the lease while a run lasts longer than leaseMs', async () => {
    const memory = harness.memory({ leaseMs: 200, concurrency: 'reject' });
    const running = agentOn(memory, echoModel(800)).run('slow', { conversationId: 'c' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(agentOn(memory).run('meanwhile', { conversationId: 'c' })).rejects.toSatisfy(harness.isBusy);
    await expect(running).resolves.toMatchObject({ text: 'answer to slow' });
    expect(await memory.load('c')).toHaveLength(2);
  });

  it('lets a crashed holder’s lease expire: the next run gets the conversation after about leaseMs', async () => {
    const doomed = harness.crashable({ leaseMs: 300 });
    await doomed.memory.load('c', { runId: 'crashed-run' });
    await doomed.crash();
    const started = Date.now();
    await agentOn(harness.memory({ leaseMs: 300 })).run('after the crash', { conversationId: 'c' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await harness.memory().load('c')).toHaveLength(2);
  });
}

/** Fencing decides an append: a lease that merely expired loses nothing, one another run took refuses it. */
function fencingTests(harness: SharedMemoryHarness): void {
  it('refuses the append of a run whose lease expired and was taken (fencing)', async () => {
    const memory = harness.memory({ leaseMs: 10_000 });
    await memory.load('c', { runId: 'stale' });
    await harness.expireLease('c'); // the lease expired while the run was stuck
    await memory.load('c', { runId: 'fresh' });
    await expect(memory.append('c', [{ role: 'user', content: 'late' }], { runId: 'stale' })).rejects.toSatisfy(harness.isLeaseLost);
    await memory.append('c', [{ role: 'user', content: 'on time' }], { runId: 'fresh' });
    expect(await memory.load('c')).toEqual([{ role: 'user', content: 'on time' }]);
  });

  it('keeps the turn of a run whose tool blocked the event loop past leaseMs, and lets the conversation go', async () => {
    const memory = harness.memory({ leaseMs: 150, concurrency: 'reject' });
    const model = scriptedModel([{ toolCalls: [{ name: 'crunch', arguments: {} }] }, 'crunched']);
    const crunch = tool({ name: 'crunch', description: 'blocks', input: EMPTY, execute: () => (blockEventLoop(600), 'done') });
    const agent = Agent.create({ provider: model, model: 'm' }).tool(crunch).memory(memory).build();
    await expect(agent.run('crunch it', { conversationId: 'c' })).resolves.toMatchObject({ text: 'crunched' });
    expect((await memory.load('c')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await expect(agentOn(memory).run('next', { conversationId: 'c' })).resolves.toMatchObject({ text: 'answer to next' });
  });

  it('after an expiry, the holder still appends while nobody else came', async () => {
    const memory = harness.memory({ leaseMs: 10_000, concurrency: 'reject' });
    await memory.load('c', { runId: 'first' });
    await harness.expireLease('c'); // expired (a pause), nobody else came
    await memory.append('c', [{ role: 'user', content: 'kept' }], { runId: 'first' });
    expect(await memory.load('c')).toEqual([{ role: 'user', content: 'kept' }]);
  });

  it('still refuses the append of a run whose conversation another run took after its lease expired', async () => {
    const memory = harness.memory({ leaseMs: 10_000 });
    const other = harness.memory({ leaseMs: 10_000 });
    const model = scriptedModel([{ toolCalls: [{ name: 'stall', arguments: {} }] }, 'too late']);
    const stall = tool({
      name: 'stall',
      description: 'stalls while another worker takes the conversation',
      input: EMPTY,
      execute: async () => {
        // The lease expires; another worker's run takes the conversation and stores its turn.
        await harness.expireLease('c');
        await other.load('c', { runId: 'taker' });
        await other.append('c', [{ role: 'user', content: 'taker' }], { runId: 'taker' });
        return 'done';
      },
    });
    const agent = Agent.create({ provider: model, model: 'm' }).tool(stall).memory(memory).build();
    await expect(agent.run('late', { conversationId: 'c' })).rejects.toSatisfy(harness.isLeaseLost);
    expect(await memory.load('c')).toEqual([{ role: 'user', content: 'taker' }]);
  });
}
