export type { WorkerAgent } from './agent-runner';
export { type CancelOutcome, cancelRun } from './cancel-run';
export { type AgentWorker, type AgentWorkerOptions, createAgentWorker } from './create-agent-worker';
export { enqueueRun, type EnqueueRunOptions } from './enqueue-run';
export type { RunJobData, RunJobProgress, RunJobSummary } from './run-job';
