import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceWriteError } from '../errors/trace-write-error';
import { traceStream } from './trace-stream';

const quote = (text: string) => JSON.stringify(text);

describe('traceStream', () => {
  it("reports a failed write with the next batch that reports when the writing thread answers it to a batch that does not (a listener.error's own line)", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-trace-stream-')), 'is-a-folder');
    mkdirSync(path);
    const stream = traceStream({ path, quote, recordContent: false, secrets: [], maxPending: 100 });
    for (let round = 0; round < 5; round++) {
      // A batch whose failure is not reported, sealed at setImmediate; then, right after its seal,
      // a line whose failure is: the writing thread may take both when it answers the first seal.
      expect(stream.line('{"event":"listener.error","payload":{}}\n', false)).toBeUndefined();
      const { reported } = await new Promise<{ reported: Promise<void> | undefined }>((resolve) => setImmediate(() => resolve({ reported: stream.line('{"event":"a","payload":{}}\n', true) })));
      await expect(reported).rejects.toSatisfy(TraceWriteError.isInstance);
    }
    await stream.flush();
  });
});
