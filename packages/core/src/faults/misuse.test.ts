import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError } from '../index';
import { scriptedModel } from '../testing/index';

/** Misuse that used to pass silently is refused at once, with the fix in the message. */
describe('misuse is refused', () => {
  const builder = () => Agent.create({ provider: scriptedModel('ok'), model: 'm' });

  it('an unknown event name on the builder names the closest known one', () => {
    const attempt = () => builder().on('validaton.failed' as never, () => undefined);
    expect(attempt).toThrow(AgentConfigurationError);
    expect(attempt).toThrow("did you mean 'validation.failed'?");
  });

  it('a pre-1.0 event name on a built agent names its 1.0 spelling', () => {
    const agent = builder().build();
    expect(() => agent.on('reliability.fail_fast' as never, () => undefined)).toThrow("did you mean 'reliability.fail-fast'?");
  });

  it('a listener that is not a function is refused, on the builder and on the agent', () => {
    expect(() => builder().on('run.end', 'log' as never)).toThrow('the listener must be a function, got string');
    expect(() => builder().build().on('run.end', null as never)).toThrow('the listener must be a function, got null');
  });

  it('a second concurrent iteration of one stream throws at once, and the first still gets every part', async () => {
    const stream = builder().build().stream('go');
    const first = stream[Symbol.asyncIterator]();
    expect(() => stream[Symbol.asyncIterator]()).toThrow('already being iterated');
    const types: string[] = [];
    for (let next = await first.next(); !next.done; next = await first.next()) types.push(next.value.type);
    expect(types.at(-1)).toBe('result');
    expect((await stream.result).text).toBe('ok');
  });
});
