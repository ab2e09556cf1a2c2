import { describe, expect, it } from 'vitest';
import { loopResultPending } from './loop-pending';

describe('loopResultPending', () => {
  it('reads work under way from a state field or phrase', () => {
    for (const text of [
      '{"deploy":"d-1","status":"in_progress"}',
      '{"job":{"state":"RUNNING","progress":40}}',
      '{"phase": "Pending"}',
      'Deploy d-1: status is queued',
      'state: in progress (2 of 5 services)',
      'The build is still running.',
      'Export in progress, check back later',
      'The report is not ready yet',
    ]) {
      expect(loopResultPending(text), text).toBe(true);
    }
  });

  it('reads an ended state, data that merely mentions a word, and a failure as not under way', () => {
    for (const text of [
      '{"status":"succeeded"}',
      '{"state":"done","progress":100}',
      '{"hits":["pending orders report","running shoes"]}',
      'No results found',
      'status: failed',
      '{"error":"not found"}',
    ]) {
      expect(loopResultPending(text), text).toBe(false);
    }
  });
});
