import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '@keel/reliability/internal';
import { Agent, RunStateError, type RunResult, tool } from '../../index';
import { asSuspended, scriptedModel, type ScriptedReply } from '../../testing/index';
import { RUN_STATE_VERSION } from '../../contracts/run-state-snapshot';
import { stateOfFormat1 } from '../journal/format-1-fixture';
import { stateSigner } from './state-signer';

const KEY = 's'.repeat(32);

/** Looks orders up (no approval), refunds them (approval), and what it refunded. */
function desk(script: readonly ScriptedReply[]) {
  const refunded: string[] = [];
  const lookup = tool({ name: 'lookup', description: 'Looks an order up', input: Type.Object({ order: Type.String() }), execute: ({ order }) => `${order}: paid 40` });
  const refund = tool({ name: 'refund', description: 'Refunds an order', input: Type.Object({ order: Type.String() }), needsApproval: true, execute: ({ order }) => (refunded.push(order), `refunded ${order}`) });
  const model = scriptedModel(script);
  return { agent: Agent.create({ provider: model, model: 'm', stateKey: KEY }).tool(lookup).tool(refund).build(), refunded, model };
}

/** A look-up in the first step; a second look-up and a refund (which waits) in the second. */
const SCRIPT: readonly ScriptedReply[] = [
  { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: 'A-1' } }] },
  {
    toolCalls: [
      { id: 'l2', name: 'lookup', arguments: { order: 'A-2' } },
      { id: 'r1', name: 'refund', arguments: { order: 'A-1' } },
    ],
  },
];

/** A run suspended on its refund, with one call kept from step 1 and one finished in the suspended step. */
const suspendedRun = async () => asSuspended(await desk(SCRIPT).agent.run('Refund A-1', { runId: 'r-1' }));

/** What a result says, its timings left out. */
const said = (result: RunResult<unknown>) => ({ status: result.status, text: result.text, messages: result.messages, toolCalls: result.toolCalls.map(({ durationMs: _durationMs, ...call }) => call), usage: result.usage });

describe('suspended states of format 1', () => {
  it('resume as the state this format seals: the calls that ran are kept, the approved one runs once, the same result', async () => {
    const now = await suspendedRun();
    const earlier = await stateOfFormat1((await suspendedRun()).state, KEY);
    expect(now.state.toolCalls).toHaveLength(1);
    expect(now.state.turn.finished).toHaveLength(1);
    expect(earlier).toMatchObject({ version: 1, toolCalls: [{ id: now.state.toolCalls[0]?.toolCallId, name: 'lookup' }], turn: { finished: [{ name: 'lookup' }] } });
    const resumedNow = desk(['Refunded A-1.']);
    const resumedEarlier = desk(['Refunded A-1.']);
    const fromNow = await resumedNow.agent.resume(now.state, { approve: [now.pendingApprovals[0]?.toolCallId as string] });
    const fromEarlier = await resumedEarlier.agent.resume(earlier, { approve: [now.pendingApprovals[0]?.toolCallId as string] });
    expect(resumedEarlier.refunded).toEqual(['A-1']);
    expect(resumedEarlier.model.calls).toBe(1);
    expect(fromEarlier.status).toBe('complete');
    expect(said(fromEarlier)).toEqual(said(fromNow));
    expect(fromEarlier.toolCalls.map((call) => call.toolName)).toEqual(['lookup', 'lookup', 'refund']);
  });

  it('is refused when changed after it was signed, and a state of a format from the future is refused as before', async () => {
    const earlier = await stateOfFormat1((await suspendedRun()).state, KEY);
    const changed = { ...earlier, toolCalls: [] };
    const { agent, refunded } = desk([]);
    const approve = { approve: [(earlier.pending as { toolCallId: string }[])[0]?.toolCallId as string] };
    await expect(agent.resume(changed, approve)).rejects.toMatchObject({ problem: 'bad-signature' });
    const { signature: _signature, ...body } = earlier;
    const future = { ...body, version: RUN_STATE_VERSION + 1 };
    const error = await agent.resume({ ...future, signature: await stateSigner(KEY).sign(canonicalJson(future)) }, approve).catch((thrown: unknown) => thrown);
    expect(RunStateError.isInstance(error) && error.problem).toBe('unsupported-version');
    expect(refunded).toEqual([]);
  });
});
