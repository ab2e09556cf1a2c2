import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { mcpTools } from './mcp-tools';
import { isAlive, memberOf } from './process-tree';
import { context, eventually, toolNamed } from './testing/helpers';

const run = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('the processes an MCP connection starts', () => {
  it('close() ends the whole tree: a server started through a launcher (as npx or a shell script starts it) does not outlive it', async () => {
    const mcp = await mcpTools({ command: process.execPath, args: [here('./testing/launcher.mjs')] });
    // The server is the launcher's child, not ours.
    const server = await memberOf(Number(await toolNamed(mcp.tools, 'pid').execute({}, context())));
    expect(await isAlive(server)).toBe(true);
    await mcp.close();
    expect(await isAlive(server)).toBe(false);
  });

  it('close() resolves only once the server its launcher started has left the process table, not as a zombie for another process to reap', async () => {
    for (const launcher of [[here('./testing/launcher.mjs')], ['-e', `require('node:child_process').spawn(process.execPath, [${JSON.stringify(here('./testing/launcher.mjs'))}], { stdio: 'inherit' }).on('exit', (code) => process.exit(code ?? 1))`]]) {
      const mcp = await mcpTools({ command: process.execPath, args: launcher });
      const server = Number(await toolNamed(mcp.tools, 'pid').execute({}, context()));
      await mcp.close();
      // `kill(pid, 0)` finds a zombie too: the process must be reaped, not only ended.
      expect(() => process.kill(server, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    }
  });

  it('a script that forgets close() exits by itself after its calls are answered, and its server ends with it', async () => {
    // The bound is a guard against a process that never exits, not a measure of speed.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', here('./testing/forget-close-fixture.ts')], { cwd: here('..'), timeout: 60_000 });
    const answer = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { pid: number; sum: string };
    expect(answer.sum).toBe('5');
    // Its server reads the end of its input and exits.
    await eventually(() => {
      try {
        process.kill(answer.pid, 0);
        return false;
      } catch {
        return true;
      }
    });
  }, 90_000);
});
