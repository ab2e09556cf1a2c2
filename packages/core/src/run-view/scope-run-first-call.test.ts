import { describe, expect, it } from 'vitest';
import { Agent, type ReliabilityScope } from '../index';
import { scriptedModel } from '../testing/index';

describe('scope.run', () => {
  it('is there on a run’s first model call too (an empty run: no steps yet, the turn being judged)', async () => {
    const seen: { readonly steps: number; readonly turn: boolean }[] = [];
    const agent = Agent.create({ provider: scriptedModel(['Hello.']), model: 'm' })
      .reliability({
        postDecide: [
          {
            kind: 'watch',
            then: 'accept',
            when: (scope: ReliabilityScope) => {
              seen.push({ steps: scope.run?.steps.length ?? -1, turn: scope.run?.turn !== undefined });
              return false;
            },
          },
        ],
      })
      .build();
    await agent.run('Hi');
    expect(seen).toEqual([{ steps: 0, turn: true }]);
  });
});
