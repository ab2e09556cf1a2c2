/**
 * What V8 (Node 20) charges for an object spread and then extended with new keys, against the same
 * object written as one literal: the run's complete result was built the first way (a record
 * spread, then 9 new keys). Not part of `pnpm bench`; run it as it is:
 *
 *   node packages/bench/src/engine-compare/spread-then-extend.mjs
 */
const NONE = Object.freeze([]);
const record = (at) => ({ runId: 'r', text: 't', messages: NONE, steps: NONE, toolCalls: NONE, attempts: NONE, usage: NONE, finishReason: 'stop', startedAt: at, durationMs: 1 });
const answer = { value: 1, provenance: 'model', repairs: NONE, coercions: NONE, issues: NONE };

const ways = {
  'spread, then 9 new keys': (at) => ({ ...record(at), status: 'complete', value: answer.value, provenance: answer.provenance, repairs: answer.repairs, coercions: answer.coercions, issues: answer.issues, pendingApprovals: NONE, unknownOutcomes: NONE }),
  'one literal': (at) => {
    const r = record(at);
    return { runId: r.runId, text: r.text, messages: r.messages, steps: r.steps, toolCalls: r.toolCalls, attempts: r.attempts, usage: r.usage, finishReason: r.finishReason, startedAt: r.startedAt, durationMs: r.durationMs, status: 'complete', value: answer.value, provenance: answer.provenance, repairs: answer.repairs, coercions: answer.coercions, issues: answer.issues, pendingApprovals: NONE, unknownOutcomes: NONE };
  },
};

const COUNT = 500_000;
for (let round = 0; round < 3; round++) {
  for (const [name, make] of Object.entries(ways)) {
    let sum = 0;
    const started = performance.now();
    for (let index = 0; index < COUNT; index++) sum += make(index).startedAt;
    const ns = ((performance.now() - started) * 1e6) / COUNT;
    if (round === 2) console.log(`${name}: ${ns.toFixed(0)} ns per object (${sum > 0 ? 'checked' : ''})`);
  }
}
