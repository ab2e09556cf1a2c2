// A launcher, as `npx` or a shell script is: it starts the test server as its own child, passes its
// stdio through, and waits for it. The server (KEEL_TEST_STAY=1) stays up after end of input, as a
// server with timers does, so only a signal ends it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = spawn(process.execPath, [fileURLToPath(new URL('./stdio-server.mjs', import.meta.url))], { stdio: 'inherit', env: { ...process.env, KEEL_TEST_STAY: '1' } });
child.on('exit', (code) => process.exit(code ?? 1));
