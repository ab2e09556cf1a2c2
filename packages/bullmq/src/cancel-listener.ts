import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { cancelChannel } from './cancel-channel';

/**
 * Subscribes a connection of its own to the queue's cancellation channel, so cancellations from
 * any process reach the worker that runs the job (`worker.cancelJob`). Resolves to that
 * connection once subscribed; a message that is not a cancellation is ignored.
 */
export async function listenForCancellations(worker: Pick<Worker, 'client' | 'cancelJob'>, prefix: string, queue: string): Promise<Redis> {
  const listener = ((await worker.client) as unknown as Redis).duplicate();
  listener.on('error', () => undefined);
  await listener.subscribe(cancelChannel(prefix, queue));
  listener.on('message', (_channel, message) => {
    try {
      const { jobId, reason } = JSON.parse(message) as { jobId: string; reason?: string };
      worker.cancelJob(String(jobId), reason);
    } catch {
      // Not a cancellation: ignored.
    }
  });
  return listener;
}
