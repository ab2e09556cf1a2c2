import type { AttemptRecord, PricingTable } from '@keel/reliability';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import type { ParentRun } from '../../tools/parent-run';
import { UsageLedger } from '../../usage/usage-ledger';
import type { RunConfig } from './run-config';

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

/** Every model a run of `config` may call: its targets and the model that summarizes at compaction. */
function modelsOf(config: RunConfig): readonly string[] {
  const summarize = config.context?.summarize;
  return summarize ? [...config.targets.map((target) => target.model), summarize.model] : config.targets.map((target) => target.model);
}

/**
 * The ledger of a nested run. It prices its calls with its own pricing, and with the pricing of
 * the runs above for the models it has no price for: a tree whose top run is priced (a
 * `costBudget` over sub-agents) counts every call's cost.
 * @throws {AgentConfigurationError} (setting `pricing`) when the runs above are priced and a model
 * the nested run may call has a price nowhere: its calls would cost $0 to the tree's budgets.
 */
export function nestedLedgerOf(config: RunConfig, parent: Pick<ParentRun, 'record' | 'pricing'>): ForwardingLedger {
  if (parent.pricing === undefined) return new ForwardingLedger(config.pricing, parent.record);
  const pricing: PricingTable = { ...parent.pricing, ...config.pricing };
  const unpriced = modelsOf(config).find((model) => !Object.hasOwn(pricing, model));
  if (unpriced !== undefined) {
    throw new AgentConfigurationError({ setting: 'pricing', message: `has no price for model "${unpriced}", which this agent calls for a priced run above it: its calls would cost $0 to that run's budgets; give the agent a pricing entry for it` });
  }
  return new ForwardingLedger(pricing, parent.record);
}
