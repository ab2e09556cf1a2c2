export { type RecordedRequest, startWireServer, type WireServer } from './wire-server';
export {
  encodeSseEvent,
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
