import { describe, expect, it, vi } from 'vitest';
import type { AgentEvents, AgentListener } from './agent-events';
import { EventBus, type ListenerEntry } from './event-bus';

const entry = <E extends keyof AgentEvents>(event: E, listener: AgentListener<E>): ListenerEntry => ({
  event,
  listener: listener as AgentListener<keyof AgentEvents>,
});

const stepStart = (): AgentEvents['step.start'] => ({ runId: 'run-1', step: 3, timestamp: 1 });

/** Lets rejected listener promises settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('EventBus', () => {
  it('delivers a payload to every listener of the event, in registration order', () => {
    const seen: string[] = [];
    const bus = new EventBus([
      entry('step.start', (event) => void seen.push(`a:${event.step}`)),
      entry('step.start', (event) => void seen.push(`b:${event.step}`)),
      entry('step.end', () => void seen.push('wrong event')),
    ]);

    bus.emit('step.start', stepStart());

    expect(seen).toEqual(['a:3', 'b:3']);
  });

  it('reports whether anything listens', () => {
    const bus = new EventBus([entry('run.start', () => {})]);
    expect(bus.has('run.start')).toBe(true);
    expect(bus.has('run.end')).toBe(false);
  });

  it('reports a throwing listener as listener.error and still calls the listeners after it', () => {
    const reports: AgentEvents['listener.error'][] = [];
    const after = vi.fn();
    const bus = new EventBus([
      entry('step.start', () => {
        throw new TypeError('listener bug');
      }),
      entry('step.start', after),
      entry('listener.error', (event) => void reports.push(event)),
    ]);

    expect(() => bus.emit('step.start', stepStart())).not.toThrow();

    expect(after).toHaveBeenCalledTimes(1);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ event: 'step.start', errorName: 'TypeError', message: 'listener bug', runId: 'run-1', step: 3 });
  });

  it('reports a listener whose promise rejects as listener.error', async () => {
    const reports: AgentEvents['listener.error'][] = [];
    const bus = new EventBus([
      entry('step.start', async () => {
        throw new Error('async listener bug');
      }),
      entry('listener.error', (event) => void reports.push(event)),
    ]);

    bus.emit('step.start', stepStart());
    await settle();

    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ event: 'step.start', errorName: 'Error', message: 'async listener bug', runId: 'run-1', step: 3 });
  });

  it('reports a thrown non-Error value with its text', () => {
    const reports: AgentEvents['listener.error'][] = [];
    const bus = new EventBus([
      entry('step.start', () => {
        throw 'plain string';
      }),
      entry('listener.error', (event) => void reports.push(event)),
    ]);

    bus.emit('step.start', stepStart());

    expect(reports[0]).toMatchObject({ event: 'step.start', message: 'plain string' });
  });
});

describe('EventBus', () => {
  it('drops failures of listener.error listeners instead of looping', async () => {
    const failingReporter = vi.fn(() => {
      throw new Error('reporter bug');
    });
    const rejectingReporter = vi.fn(async () => {
      throw new Error('async reporter bug');
    });
    const bus = new EventBus([
      entry('step.start', () => {
        throw new Error('listener bug');
      }),
      entry('listener.error', failingReporter),
      entry('listener.error', rejectingReporter),
    ]);

    expect(() => bus.emit('step.start', stepStart())).not.toThrow();
    await settle();

    expect(failingReporter).toHaveBeenCalledTimes(1);
    expect(rejectingReporter).toHaveBeenCalledTimes(1);
  });

  it('freezes payloads, so a listener cannot change what the next one sees', () => {
    const seen: number[] = [];
    const reports: AgentEvents['listener.error'][] = [];
    const bus = new EventBus([
      entry('step.start', (event) => {
        (event as { step: number }).step = 99;
      }),
      entry('step.start', (event) => void seen.push(event.step)),
      entry('listener.error', (event) => void reports.push(event)),
    ]);
    const payload = stepStart();

    bus.emit('step.start', payload);

    expect(Object.isFrozen(payload)).toBe(true);
    expect(seen).toEqual([3]);
    expect(payload.step).toBe(3);
    expect(reports[0]).toMatchObject({ event: 'step.start', errorName: 'TypeError' });
  });

  it('calls a function added twice twice; each remover takes away one registration, once', () => {
    const bus = new EventBus();
    const seen: number[] = [];
    const listener = (event: AgentEvents['step.start']) => void seen.push(event.step);
    const removeFirst = bus.on('step.start', listener);
    const removeSecond = bus.on('step.start', listener);
    bus.emit('step.start', stepStart());
    expect(seen).toEqual([3, 3]);
    removeFirst();
    removeFirst();
    bus.emit('step.start', stepStart());
    expect(seen).toEqual([3, 3, 3]);
    expect(bus.has('step.start')).toBe(true);
    removeSecond();
    expect(bus.has('step.start')).toBe(false);
    bus.emit('step.start', stepStart());
    expect(seen).toEqual([3, 3, 3]);
  });
});
