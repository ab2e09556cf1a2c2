import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args';
import { DevtoolsError } from './errors/devtools-error';

describe('keel-devtools arguments', () => {
  it('takes a file and an optional port', () => {
    expect(parseCliArgs(['runs.jsonl'])).toEqual({ type: 'serve', options: { file: 'runs.jsonl' } });
    expect(parseCliArgs(['runs.jsonl', '--port', '0'])).toEqual({ type: 'serve', options: { file: 'runs.jsonl', port: 0 } });
    expect(parseCliArgs(['--port=5000', 'runs.jsonl'])).toEqual({ type: 'serve', options: { file: 'runs.jsonl', port: 5000 } });
    expect(parseCliArgs(['--help'])).toEqual({ type: 'help' });
  });

  it('refuses what it does not know, with the option at fault', () => {
    for (const args of [[], ['a', 'b'], ['a', '--port'], ['a', '--port', 'x'], ['a', '--port', '-1'], ['a', '--host', '0.0.0.0']]) {
      let error: unknown;
      try {
        parseCliArgs(args);
      } catch (caught) {
        error = caught;
      }
      expect(DevtoolsError.isInstance(error), args.join(' ')).toBe(true);
      expect((error as DevtoolsError).problem, args.join(' ')).toBe('options');
    }
  });
});
