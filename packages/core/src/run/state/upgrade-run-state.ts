import { RUN_STATE_VERSION, type RunStateSnapshot } from '../../contracts/run-state-snapshot';
import { isStoredObject, type StoredJson, upgradeToolCalls } from './upgrade-tool-call';

/** The format of suspended states before tool calls' records were named `toolCallId` / `toolName`. */
export const RUN_STATE_VERSION_1 = 1;

/**
 * A suspended state of format 1, its signature checked, as this format has it: the records of
 * its tool calls (`toolCalls`, `turn.finished`) name each call `toolCallId` / `toolName`. Its
 * other fields are the same in both formats. The signature stays the one format 1 checked.
 */
export function upgradeRunState(state: StoredJson): RunStateSnapshot {
  const turn = isStoredObject(state.turn) ? { ...state.turn, finished: upgradeToolCalls(state.turn.finished) } : state.turn;
  return { ...state, version: RUN_STATE_VERSION, toolCalls: upgradeToolCalls(state.toolCalls), turn } as unknown as RunStateSnapshot;
}
