/**
 * A child process for the writing thread's test: a trace let go (its close sent, as when it is
 * collected) while a seal of it is still to be answered, as a batch sealed at `setImmediate` after
 * the trace was collected is. The process must still end once the seal is answered.
 */
import { traceThread } from '../trace/trace-thread';

const { thread, id } = traceThread({ sealed: () => undefined, spare: () => undefined, stopped: () => undefined });
thread.send({ type: 'close', id });
thread.hold();
thread.send({ type: 'seal', id, batch: 1 });
