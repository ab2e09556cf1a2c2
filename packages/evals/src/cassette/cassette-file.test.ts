import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelRequest } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { CassetteError, type CassetteProblem } from '../errors/cassette-error';
import { cassette } from './cassette';
import { readCassetteFile } from './cassette-file';

let path: string;
beforeEach(() => {
  path = join(mkdtempSync(join(tmpdir(), 'keel-cassette-')), 'calls.json');
});

const ask = (content: string): ModelRequest => ({ model: 'm', messages: [{ role: 'user', content }] });
const problemOf = (write: string, mode: 'replay' | 'auto' = 'replay'): CassetteProblem | string => {
  writeFileSync(path, write);
  try {
    cassette(scriptedModel('x'), { path, mode });
    return 'no error';
  } catch (error) {
    return CassetteError.isInstance(error) ? `${error.problem}: ${error.message}` : String(error);
  }
};

describe('cassette files', () => {
  it('refuses a corrupt or hand-edited file with a typed error naming the problem', async () => {
    expect(problemOf('{"keelCassette": 1, "interactions": [')).toMatch(/^invalid-json: Cassette .*calls\.json: not valid JSON/);
    expect(problemOf('[]')).toMatch(/^invalid-format: .*no JSON object/);
    expect(problemOf('{"interactions": []}', 'auto')).toMatch(/^invalid-format: .*no keelCassette version field/);
    expect(problemOf('{"keelCassette": 2, "interactions": []}')).toMatch(/^version: .*format version 2; this version reads 1/);
    await cassette(scriptedModel('fine'), { path, mode: 'record' }).generate(ask('Hi'), {});
    const good = JSON.parse(readFileSync(path, 'utf8')) as { interactions: Record<string, unknown>[] };
    const edit = (change: (interaction: Record<string, unknown>) => void) => {
      const copy = structuredClone(good);
      change(copy.interactions[0] as Record<string, unknown>);
      return problemOf(JSON.stringify(copy));
    };
    expect(edit((interaction) => delete interaction['response'])).toMatch(/^invalid-format: .*interactions\[0\] the response is not an object/);
    expect(edit((interaction) => ((interaction['response'] as Record<string, unknown>)['finishReason'] = 'done'))).toMatch(/finishReason "done" is not one Keel knows/);
    expect(edit((interaction) => ((interaction['response'] as Record<string, unknown>)['usage'] = { inputTokens: 1 }))).toMatch(/usage lacks its four token counts/);
    expect(edit((interaction) => (interaction['call'] = 'chat'))).toMatch(/unknown call "chat"/);
    expect(edit((interaction) => Object.assign(interaction, { call: 'stream', parts: [{ type: 'text-delta', text: 'cut' }] }))).toMatch(/a stream that neither finishes nor records an error/);
    expect(edit((interaction) => Object.assign(interaction, { call: 'stream', parts: [{ type: 'sparkle' }] }))).toMatch(/parts\[0\] has an unknown type "sparkle"/);
    expect(edit((interaction) => Object.assign(interaction, { error: { name: 'E' } }))).toMatch(/error has no name or message/);
  });

  it('keeps every recording when many calls of one process record at once', async () => {
    const recorder = cassette(scriptedModel((request) => `answer to ${String(request.messages[0]?.content)}`), { path, mode: 'record' });
    await Promise.all(Array.from({ length: 25 }, (_, index) => recorder.generate(ask(`question ${index}`), {})));
    expect(readCassetteFile(path)?.interactions).toHaveLength(25);
    const player = cassette(scriptedModel('unused'), { path, mode: 'replay' });
    for (let index = 24; index >= 0; index--) expect((await player.generate(ask(`question ${index}`), {})).text).toBe(`answer to question ${index}`);
  });

  it('keeps the recordings of two record cassettes made together for one file, and a later one starts it afresh', async () => {
    const answer = scriptedModel((request) => `answer to ${String(request.messages[0]?.content)}`);
    const first = cassette(answer, { path, mode: 'record' });
    const second = cassette(answer, { path, mode: 'record' });
    await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? first : second).generate(ask(`question ${index}`), {})));
    expect(readCassetteFile(path)?.interactions).toHaveLength(10);
    await cassette(answer, { path, mode: 'record' }).generate(ask('a new recording'), {});
    expect(readCassetteFile(path)?.interactions.map((interaction) => interaction.request['messages'])).toEqual([[{ role: 'user', content: 'a new recording' }]]);
  });

  it('keeps what other writers added: cassettes in auto mode sharing a file append under its lock', async () => {
    const first = cassette(scriptedModel('from the first'), { path, mode: 'auto' });
    const second = cassette(scriptedModel('from the second'), { path, mode: 'auto' });
    await Promise.all([
      ...Array.from({ length: 10 }, (_, index) => first.generate(ask(`first ${index}`), {})),
      ...Array.from({ length: 10 }, (_, index) => second.generate(ask(`second ${index}`), {})),
    ]);
    expect(readCassetteFile(path)?.interactions).toHaveLength(20);
    expect(readdirSync(dirname(path))).toEqual(['calls.json']);
  });

  it('takes over a lock left by a process that died, and waits for a live one', async () => {
    writeFileSync(`${path}.lock`, '2147483646');
    await cassette(scriptedModel('ok'), { path, mode: 'auto' }).generate(ask('after a crash'), {});
    expect(readCassetteFile(path)?.interactions).toHaveLength(1);
    expect(existsSync(`${path}.lock`)).toBe(false);

    writeFileSync(`${path}.lock`, String(process.pid));
    const waiting = cassette(scriptedModel('ok'), { path, mode: 'auto' }).generate(ask('while locked'), {});
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(readCassetteFile(path)?.interactions).toHaveLength(1);
    unlinkSync(`${path}.lock`);
    await waiting;
    expect(readCassetteFile(path)?.interactions).toHaveLength(2);
  });

  it('never leaves half a file when the recording process is killed mid-write', async () => {
    const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'testing', 'record-until-killed.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', script, path], { cwd: dirname(script), stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the recorder exited on its own (${String(code)})`)));
      child.stdout.on('data', (chunk: Buffer) => {
        // Kill it while it writes its sixth, larger-than-ever file.
        if (chunk.toString().includes('saved 5')) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((resolve) => child.once('exit', resolve));
    const interactions = readCassetteFile(path)?.interactions ?? [];
    expect(interactions.length).toBeGreaterThanOrEqual(5);
    // The next writer takes over the dead recorder's lock, if it held one.
    await cassette(scriptedModel('next'), { path, mode: 'auto' }).generate(ask('after the kill'), {});
    expect(readCassetteFile(path)?.interactions).toHaveLength(interactions.length + 1);
  }, 30_000);
});
