import type { Agent, SuspendedRunResult } from '@keel/core';

/** The decisions that resume a suspended run: `approve` / `reject` for pending approvals, `outcomes` / `retry` for unknown outcomes. */
export type DbosDecisions = Parameters<Agent['resume']>[1];

/** The event a workflow sets (`DBOS.setEvent`) each time its run suspends. */
export const SUSPENSION_EVENT = 'keel.suspension';

/** The topic of the messages (`DBOS.send`) that carry a suspension's decisions. */
export const DECISIONS_TOPIC = 'keel.decisions';

/** What a workflow publishes, as its {@link SUSPENSION_EVENT}, when its run suspends. */
export interface DbosSuspension {
  readonly runId: string;
  /** The workflow's suspensions are numbered from 1: decisions name the one they settle. */
  readonly suspension: number;
  readonly pendingApprovals: SuspendedRunResult['pendingApprovals'];
  readonly unknownOutcomes: SuspendedRunResult['unknownOutcomes'];
  /** Why the decisions last sent for this suspension were refused (they named a call it does not wait on, or left one undecided). */
  readonly refused?: string;
}

/** The message that settles a suspension. */
export interface DbosDecisionMessage {
  readonly suspension: number;
  readonly decisions: DbosDecisions;
}

/** Tells a decision message apart from anything else sent on the topic. */
export function isDecisionMessage(value: unknown): value is DbosDecisionMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { suspension, decisions } = value as Partial<DbosDecisionMessage>;
  return typeof suspension === 'number' && typeof decisions === 'object' && decisions !== null;
}
