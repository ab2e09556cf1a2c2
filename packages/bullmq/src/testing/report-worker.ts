import type { Worker } from 'bullmq';

/** Prints a worker process's events as JSON lines (what the tests' `startWorkerProcess` reads): each job active, completed or failed, then `ready`. */
export async function reportWorker(worker: Worker): Promise<void> {
  const say = (message: object) => process.stdout.write(`${JSON.stringify({ pid: process.pid, ...message })}\n`);
  worker.on('active', (job) => say({ event: 'active', jobId: job.id }));
  worker.on('completed', (job) => say({ event: 'completed', jobId: job.id }));
  worker.on('failed', (job, error) => say({ event: 'failed', jobId: job?.id, message: error.message }));
  await worker.waitUntilReady();
  say({ event: 'ready' });
}
