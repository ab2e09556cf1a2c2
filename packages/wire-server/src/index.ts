export { wireServerPerTest, wireServersPerTest } from './per-test';
export { type RecordedRequest, startWireServer, type WireServer } from './wire-server';
export {
  errorReply,
  hangReply,
  jsonReply,
  rawJsonReply,
  resetReply,
  respondReply,
  type RespondedRequest,
  type SseEnding,
  type SseEvent,
  sseReply,
  type WireReply,
} from './wire-reply';
