export { type AgentQueue, agentQueue } from './agent-queue';
export { type CancelOutcome, cancelRun } from './cancel-run';
export { type AgentWorker, type AgentWorkerOptions, createAgentWorker } from './create-agent-worker';
export { enqueueRun, type EnqueueRunOptions } from './enqueue-run';
export { resumeRun, type ResumeRunOptions } from './resume-run';
export type {
  AgentOutput,
  CompleteRunJobSummary,
  ResumeDecisions,
  ResumeJob,
  RunJob,
  RunJobData,
  RunJobProgress,
  RunJobSummary,
  RunJobSummaryBase,
  SuspendedRunJob,
  SuspendedRunJobSummary,
  WorkerAgent,
  WorkerAgents,
} from './run-job';
export type { RunStreamPart } from './run-stream';
