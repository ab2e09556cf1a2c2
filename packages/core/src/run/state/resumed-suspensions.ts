/** How many resumed suspensions a process remembers (the oldest are forgotten first). */
export const REMEMBERED_RESUMES = 10_000;

/** Suspension ids resumed in this process, oldest first: shared by every agent, so a state resumes once per process. */
const resumed = new Set<string>();

/**
 * Claims a suspension for one resume: true the first time in this process, false afterwards (a
 * replay, or a second resume running at the same time). Synchronous, so of two concurrent resumes
 * exactly one claims it. Suspension ids are random, so agents never claim each other's.
 */
export function claimSuspension(suspensionId: string): boolean {
  if (resumed.has(suspensionId)) return false;
  resumed.add(suspensionId);
  if (resumed.size > REMEMBERED_RESUMES) resumed.delete(resumed.values().next().value as string);
  return true;
}

/** Gives a claim back: the resume failed before any approved call began, so the state may be resumed again. */
export function releaseSuspension(suspensionId: string): void {
  resumed.delete(suspensionId);
}
