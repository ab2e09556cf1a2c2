import type { Message, RunInput } from '@keel/core';
import type { Provenance, RunUsage } from '@keel/core/internal';

/** The data of an agent-run job, as `enqueueRun` stores it. */
export interface RunJobData {
  /** The name of the agent to run, a key of the worker's `agents`. */
  readonly agent: string;
  readonly input: RunInput;
  readonly conversationId?: string;
  /** Who the run is for (reported back in the summary; use it in budget keys). */
  readonly tenant?: string;
}

/** A job's return value: a JSON summary of the run. */
export interface RunJobSummary<T = unknown> {
  readonly runId: string;
  readonly value: T;
  readonly text: string;
  readonly provenance: Provenance;
  readonly usage: RunUsage;
  /** Model calls made, failed attempts and re-asks included. */
  readonly attempts: number;
  readonly steps: number;
  readonly finishReason: string;
  readonly durationMs: number;
  readonly tenant?: string;
  readonly conversationId?: string;
}

/** What a job reports as progress while its run goes on. */
export interface RunJobProgress {
  readonly step: number;
  /** Retries so far (validation feedback and transient errors). */
  readonly retries: number;
  readonly toolCalls: number;
  /** The last thing that happened: `step-start`, `step-end`, `retry`, `tool-result`. */
  readonly last: string;
}

/** Checks job data read back from Redis. */
export function isRunJobData(value: unknown): value is RunJobData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  const inputOk =
    typeof data.input === 'string' ||
    (typeof data.input === 'object' && data.input !== null && !Array.isArray(data.input) && typeof (data.input as { message?: unknown }).message === 'string') ||
    (Array.isArray(data.input) && data.input.every((message: Message) => typeof message === 'object' && message !== null && typeof message.role === 'string'));
  return (
    typeof data.agent === 'string' &&
    inputOk &&
    (data.conversationId === undefined || typeof data.conversationId === 'string') &&
    (data.tenant === undefined || typeof data.tenant === 'string')
  );
}
