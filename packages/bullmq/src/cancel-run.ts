import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { cancelChannel } from './cancel-channel';

/** What {@link cancelRun} did. */
export type CancelOutcome = 'removed' | 'signalled' | 'not-found' | 'finished';

/**
 * Cancels an agent-run job. A job not yet running is removed from the queue; a running one is
 * cancelled on whichever worker runs it: the request goes out on a Redis pub/sub channel that
 * every `createAgentWorker` subscribes to, and that worker aborts the run's signal
 * (BullMQ's `worker.cancelJob`), so the provider request and every wait stop. The job then fails
 * with a `cancelled:` reason and is not retried.
 */
export async function cancelRun(queue: Queue, jobId: string, reason = 'cancelled'): Promise<CancelOutcome> {
  const job = await queue.getJob(jobId);
  if (!job) return 'not-found';
  const state = await job.getState();
  if (state === 'completed' || state === 'failed') return 'finished';
  if (state !== 'active') {
    try {
      await job.remove();
      return 'removed';
    } catch {
      // Taken by a worker in the meantime: cancel it where it runs.
    }
  }
  const client = (await queue.client) as unknown as Redis;
  await client.publish(cancelChannel(queue.opts.prefix ?? 'bull', queue.name), JSON.stringify({ jobId, reason }));
  return 'signalled';
}
