import { decode } from './constrained-decoder';
import { piecesOf, toolNamed, type ModelTurn } from './simulated-model';
import { openAIStrictProblem } from './validate-openai-request';
import { errorReply, jsonReply, respondReply, sseReply, type SseEvent, type WireReply } from '@keel/wire-server';

type Json = Record<string, unknown>;

const usage = { prompt_tokens: 640, completion_tokens: 48, total_tokens: 688, prompt_tokens_details: { cached_tokens: 0 } };

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function streamOf(base: Json, message: Json, finishReason: string): SseEvent[] {
  const chunk = (delta: Json, finish: string | null = null): SseEvent => ({ data: { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] } });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: null, refusal: null })];
  if (typeof message['content'] === 'string') for (const content of piecesOf(message['content'])) events.push(chunk({ content }));
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
  calls.forEach((call: Json, index) => {
    const fn = call['function'] as Json;
    events.push(chunk({ tool_calls: [{ index, id: call['id'], type: 'function', function: { name: fn['name'], arguments: '' } }] }));
    for (const piece of piecesOf(String(fn['arguments']))) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, finishReason));
  events.push({ data: { ...base, object: 'chat.completion.chunk', choices: [], usage } });
  events.push({ data: '[DONE]' });
  return events;
}

/**
 * One turn of a simulated OpenAI model behind the local Chat Completions server. It first applies
 * the API's strict-mode rules ({@link openAIStrictProblem}) and answers what the API answers when
 * they are broken: HTTP 400, `{ error: { message, type: 'invalid_request_error', param, code } }`.
 * Otherwise it simulates constrained decoding: a call to a `strict` function has arguments
 * constrained to its parameters, an answer under a strict `json_schema` response format is JSON
 * constrained to it (both parse and match the schema sent); without them the intent is written
 * as it is. The reply streams when the request asks.
 */
export function openAIModel(turn: ModelTurn): WireReply {
  return respondReply(({ body }) => {
    const problem = openAIStrictProblem(body);
    if (problem !== undefined) return errorReply(400, { error: problem }, { 'x-request-id': 'req_strict_schema_400' });
    if (!isObject(body)) throw new Error('simulated model: the body is not an object');
    let message: Json;
    let finishReason: string;
    if (turn.type === 'tool-call') {
      const fn = toolNamed(body['tools'], turn.name, (tool) => (isObject(tool['function']) && tool['function']['name'] === turn.name ? tool['function'] : undefined));
      const args = fn['strict'] === true ? decode(turn.intent, fn['parameters']) : turn.intent;
      const call = { id: 'call_Simulated0000000000000001', type: 'function', function: { name: turn.name, arguments: JSON.stringify(args) } };
      message = { role: 'assistant', content: null, tool_calls: [call], refusal: null };
      finishReason = 'tool_calls';
    } else {
      const format = body['response_format'];
      const jsonSchema = isObject(format) && format['type'] === 'json_schema' && isObject(format['json_schema']) ? format['json_schema'] : undefined;
      const strict = jsonSchema !== undefined && jsonSchema['strict'] === true;
      const value = strict ? decode(turn.intent, jsonSchema['schema']) : turn.intent;
      message = { role: 'assistant', content: typeof value === 'string' && !strict ? value : JSON.stringify(value), refusal: null };
      finishReason = 'stop';
    }
    const base = { id: 'chatcmpl-Simulated0000000001', created: 1_795_000_000, model: body['model'], system_fingerprint: 'fp_sim0001' };
    if (body['stream'] === true) return sseReply(streamOf(base, message, finishReason));
    return jsonReply({ ...base, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage });
  });
}
