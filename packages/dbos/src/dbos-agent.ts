import { createHash } from 'node:crypto';
import { DBOS, type WorkflowHandle } from '@dbos-inc/dbos-sdk';
import { type Agent, type AgentBuilder, memoryRunStore, type RunInput, type RunResult, RunStateError } from '@keel/core';
import { dbosCalls, type WorkflowExecution, workflowExecution } from './dbos-calls';
import { DECISIONS_TOPIC, type DbosDecisionMessage, type DbosDecisions, type DbosSuspension, isDecisionMessage, SUSPENSION_EVENT } from './decisions';

/** How an agent runs as a DBOS workflow. */
export interface DbosAgentOptions {
  /** The workflow's name, the same in every process (DBOS recovers a workflow by it). */
  readonly name: string;
  /** Seconds a suspended run waits for its decisions; then the workflow ends with the suspended result. Default 7 days. */
  readonly decisionTimeoutSeconds?: number;
}

/** What one workflow runs: the run's input and its options. The workflow's id is the run's id. */
export interface DbosAgentInput {
  readonly input: RunInput;
  readonly conversationId?: string;
  readonly tenant?: string;
}

/** An agent registered as a DBOS workflow (see {@link dbosAgent}). */
export interface DbosAgent<TOutput> {
  /** The registered workflow: call it in a workflow, or start it with `DBOS.startWorkflow`. */
  readonly workflow: (input: DbosAgentInput) => Promise<RunResult<TOutput>>;
  /** Starts a run as a workflow with id `workflowID` (the run's id): DBOS runs it once per id. */
  start(input: DbosAgentInput, options: { readonly workflowID: string }): Promise<WorkflowHandle<RunResult<TOutput>>>;
  /** The workflow's latest suspension, waiting up to `timeoutSeconds` (default 60) for one; `null` when none came. */
  suspension(workflowID: string, timeoutSeconds?: number): Promise<DbosSuspension | null>;
  /** Sends the decisions that settle suspension number `suspension` of a workflow: the same decisions are sent once, however often this is called; other decisions (after a refusal) are sent. */
  decide(workflowID: string, suspension: number, decisions: DbosDecisions): Promise<void>;
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Registers `builder`'s agent as a DBOS workflow (call it before `DBOS.launch()`, in every
 * process that may run or recover it). Each model call and each tool call of a run is a DBOS
 * step: when DBOS recovers the workflow after a crash, finished steps are replayed from its system
 * database and only what is left runs. Each execution of the workflow drives its own agent, built
 * from `builder` with the steps' call wrapper and an in-process run store (`memoryRunStore()`)
 * that Keel's recovery reads, so a tool call a crash interrupted is decided by its `effect`: run
 * again with the same idempotency key (`none`, `idempotent`), or an unknown outcome (`once`).
 * A run that suspends (approvals, unknown outcomes) sets the {@link SUSPENSION_EVENT} event and
 * waits for its decisions as a DBOS message ({@link DbosAgent.decide}).
 * @throws {AgentConfigurationError} when the builder's configuration is refused (a builder with a run store of its own is: DBOS keeps the run).
 */
export function dbosAgent<TOutput, THasSchema extends boolean>(builder: AgentBuilder<TOutput, THasSchema>, options: DbosAgentOptions): DbosAgent<TOutput> {
  const timeoutSeconds = options.decisionTimeoutSeconds ?? 7 * DAY_SECONDS;
  // Refuses a contradictory configuration now, not in the first workflow.
  builder.durable(memoryRunStore()).build();
  const workflow = DBOS.registerWorkflow(
    async (input: DbosAgentInput): Promise<RunResult<TOutput>> => {
      const runId = DBOS.workflowID;
      if (runId === undefined) throw new Error('a Keel agent workflow runs only as a DBOS workflow');
      let execution = workflowExecution();
      const agent = builder.wrapCalls(dbosCalls(() => execution)).durable(memoryRunStore()).build() as unknown as Agent<TOutput>;
      const tenant = input.tenant === undefined ? {} : { tenant: input.tenant };
      /** Runs `work`, and recovers the run (Keel's recovery, on the execution's journal) each time an interrupted tool call stopped it. */
      const continuing = async (work: (signal: AbortSignal) => Promise<RunResult<TOutput>>): Promise<RunResult<TOutput>> => {
        let next = work;
        for (;;) {
          const current: WorkflowExecution = execution;
          try {
            return await next(current.controller.signal);
          } catch (error) {
            if (!current.interrupted) throw error;
            execution = workflowExecution();
            next = (signal) => agent.recover(runId, { signal, ...tenant });
          }
        }
      };
      const conversation = input.conversationId === undefined ? {} : { conversationId: input.conversationId };
      let result = await continuing((signal) => agent.run(input.input, { runId, signal, ...conversation, ...tenant }));
      let refused: string | undefined;
      for (let suspension = 1; result.status === 'suspended'; ) {
        const suspended = result;
        const published: DbosSuspension = { runId, suspension, pendingApprovals: suspended.pendingApprovals, unknownOutcomes: suspended.unknownOutcomes, ...(refused === undefined ? {} : { refused }) };
        await DBOS.setEvent(SUSPENSION_EVENT, published);
        const message = await receive(suspension, timeoutSeconds);
        if (message === null) return suspended;
        try {
          result = await continuing((signal) => agent.resume(suspended.state, message.decisions, { signal, ...tenant }));
          refused = undefined;
          suspension += 1;
        } catch (error) {
          if (!(RunStateError.isInstance(error) && error.problem === 'bad-decisions')) throw error;
          refused = error.message;
        }
      }
      return result;
    },
    { name: options.name },
  );
  return {
    workflow,
    start: (input, { workflowID }) => DBOS.startWorkflow(workflow, { workflowID })(input),
    suspension: (workflowID, seconds = 60) => DBOS.getEvent<DbosSuspension>(workflowID, SUSPENSION_EVENT, { timeoutSeconds: seconds }),
    decide: (workflowID, suspension, decisions) => {
      const message: DbosDecisionMessage = { suspension, decisions };
      // The same decisions are delivered once; others for the same suspension (corrected after a refusal) are delivered too.
      const digest = createHash('sha256').update(JSON.stringify(decisions) ?? '', 'utf8').digest('hex');
      return DBOS.send(workflowID, message, DECISIONS_TOPIC, `${workflowID}:${suspension}:${digest}`);
    },
  };
}

/** The decisions for suspension number `suspension`: messages for another one are dropped. `null` when none came in time. */
async function receive(suspension: number, timeoutSeconds: number): Promise<DbosDecisionMessage | null> {
  for (;;) {
    const message = await DBOS.recv<unknown>(DECISIONS_TOPIC, { timeoutSeconds });
    if (message === null) return null;
    if (isDecisionMessage(message) && message.suspension === suspension) return message;
  }
}
