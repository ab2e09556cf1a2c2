import { decode } from './constrained-decoder';
import { piecesOf, toolNamed, type ModelTurn } from './simulated-model';
import { anthropicStrictProblem } from './validate-anthropic-request';
import { errorReply, jsonReply, respondReply, sseReply, type SseEvent, type WireReply } from '@keel/wire-server';

type Json = Record<string, unknown>;

const usage = { input_tokens: 812, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 64, service_tier: 'standard' };

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function streamOf(message: Json, content: readonly Json[]): SseEvent[] {
  const events: SseEvent[] = [{ event: 'message_start', data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } } }];
  content.forEach((block, index) => {
    if (block['type'] === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      for (const text of piecesOf(String(block['text']))) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text } } });
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} } } });
      for (const partial of piecesOf(JSON.stringify(block['input']))) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } } });
      }
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: message['stop_reason'], stop_sequence: null }, usage: { output_tokens: usage.output_tokens } } });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/**
 * One turn of a simulated Claude model behind the local Messages API server. It first applies the
 * API's rules for structured outputs ({@link anthropicStrictProblem}) and answers what the API
 * answers when they are broken: HTTP 400, `{ type: 'error', error: { type:
 * 'invalid_request_error', message } }`. Otherwise it simulates constrained decoding: a tool call
 * to a `strict` tool has arguments constrained to its `input_schema`, an answer under
 * `output_config.format` is JSON constrained to that schema (both parse and match the schema
 * sent); without them the intent is written as it is. The reply streams when the request asks.
 */
export function anthropicModel(turn: ModelTurn): WireReply {
  return respondReply(({ body }) => {
    const problem = anthropicStrictProblem(body);
    if (problem !== undefined) return errorReply(400, { type: 'error', error: { type: 'invalid_request_error', message: problem } }, { 'request-id': 'req_011CVStrictSchema400' });
    if (!isObject(body)) throw new Error('simulated model: the body is not an object');
    let content: Json[];
    let stopReason: string;
    if (turn.type === 'tool-call') {
      const tool = toolNamed(body['tools'], turn.name, (candidate) => (candidate['name'] === turn.name ? candidate : undefined));
      const input = tool['strict'] === true ? decode(turn.intent, tool['input_schema']) : turn.intent;
      content = [{ type: 'tool_use', id: 'toolu_01SimulatedCall0000000001', name: turn.name, input }];
      stopReason = 'tool_use';
    } else {
      const config = body['output_config'];
      const format = isObject(config) && isObject(config['format']) ? config['format'] : undefined;
      const value = format === undefined ? turn.intent : decode(turn.intent, format['schema']);
      content = [{ type: 'text', text: typeof value === 'string' && format === undefined ? value : JSON.stringify(value) }];
      stopReason = 'end_turn';
    }
    const message = { id: 'msg_01SimulatedModel000001', type: 'message', role: 'assistant', model: body['model'], stop_sequence: null, stop_reason: stopReason };
    return body['stream'] === true ? sseReply(streamOf(message, content)) : jsonReply({ ...message, content, usage });
  });
}
