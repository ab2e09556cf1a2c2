import type { AttemptRecord, PricingTable } from '@keel/reliability';
import { UsageLedger } from '../../usage/usage-ledger';

/**
 * The ledger of a run made by another run's tool call (`agent.asTool()`): each model call is
 * recorded here and, as it happens, in the parent's ledger too, so the parent's usage, result and
 * PreCheck budgets count it.
 */
export class ForwardingLedger extends UsageLedger {
  constructor(
    pricing: PricingTable | undefined,
    private readonly forward: (attempt: AttemptRecord) => void,
  ) {
    super(pricing);
  }

  override record(attempt: AttemptRecord): void {
    super.record(attempt);
    this.forward(attempt);
  }
}
