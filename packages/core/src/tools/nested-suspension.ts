import type { NestedApproval } from './pending-approval';

/**
 * Thrown by an agent called as a tool (`agent.asTool()`) whose run suspended for approvals: the
 * call does not end, it waits, and the calling run suspends with it (see `PendingApproval.nested`).
 */
export class NestedSuspension extends Error {
  constructor(readonly nested: NestedApproval) {
    super(`the agent '${nested.agent}' waits for approval of ${nested.pending.map((call) => call.toolName).join(', ')}`);
    this.name = 'NestedSuspension';
  }

  /** The suspended agent `thrown` carries, when it is a `NestedSuspension` (safe on any thrown value, a hostile Proxy too). */
  static nestedOf(thrown: unknown): NestedApproval | undefined {
    try {
      return thrown instanceof NestedSuspension ? thrown.nested : undefined;
    } catch {
      return undefined;
    }
  }
}
