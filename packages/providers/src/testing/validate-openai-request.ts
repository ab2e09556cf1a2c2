import { openAIStrictSchemaProblem } from './strict-schema-rules';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An OpenAI 400's error object: what the API answers in `{ error: … }`. */
export interface OpenAIErrorObject {
  readonly message: string;
  readonly type: 'invalid_request_error';
  readonly param: string | null;
  readonly code: string | null;
}

/**
 * The 400 error OpenAI's API answers for the structured-output parts of a body, or `undefined`
 * when it accepts them: a `json_schema` response format needs a name of letters, digits, `_` and
 * `-` (at most 64) and, with `strict: true`, a schema strict mode takes (param `response_format`);
 * every function with `strict: true` needs such parameters (param `tools[<n>].function.parameters`,
 * code `invalid_function_parameters`).
 */
export function openAIStrictProblem(body: unknown): OpenAIErrorObject | undefined {
  if (!isObject(body)) return undefined;
  const format = body['response_format'];
  if (isObject(format) && format['type'] === 'json_schema') {
    const jsonSchema = format['json_schema'];
    const name = isObject(jsonSchema) ? jsonSchema['name'] : undefined;
    if (!isObject(jsonSchema) || typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
      return { message: "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", type: 'invalid_request_error', param: 'response_format.json_schema.name', code: 'invalid_value' };
    }
    if (jsonSchema['strict'] === true) {
      const message = openAIStrictSchemaProblem(jsonSchema['schema'], `response_format '${name}'`);
      if (message !== undefined) return { message, type: 'invalid_request_error', param: 'response_format', code: null };
    }
  }
  const tools = Array.isArray(body['tools']) ? body['tools'] : [];
  for (const [index, tool] of tools.entries()) {
    const fn = isObject(tool) ? tool['function'] : undefined;
    if (!isObject(fn) || fn['strict'] !== true) continue;
    const message = openAIStrictSchemaProblem(fn['parameters'], `function '${String(fn['name'])}'`);
    if (message !== undefined) return { message, type: 'invalid_request_error', param: `tools[${index}].function.parameters`, code: 'invalid_function_parameters' };
  }
  return undefined;
}

/**
 * Checks an outgoing Chat Completions body and returns what breaks the API's rules: a model and
 * messages; every assistant `tool_calls` id answered by a `role: 'tool'` message before the next
 * non-tool message; no tool message without a call to answer; arguments sent as JSON strings; no
 * assistant message with neither content nor tool calls; a forced tool that exists; strict
 * schemas strict mode accepts ({@link openAIStrictProblem}).
 */
export function openAIRequestIssues(body: unknown): string[] {
  if (!isObject(body)) return ['the body is not a JSON object'];
  const issues: string[] = [];
  if (typeof body['model'] !== 'string' || body['model'] === '') issues.push('model is missing');
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  if (messages.length === 0) issues.push('messages must be a non-empty array');
  let open = new Set<string>();
  const closeTurn = (at: string) => {
    for (const id of open) issues.push(`tool call ${id} is not answered by a tool message before ${at}`);
    open = new Set();
  };
  messages.forEach((message, index) => {
    const at = `messages[${index}]`;
    if (!isObject(message)) return void issues.push(`${at} is not an object`);
    const role = message['role'];
    if (role === 'tool') {
      const id = message['tool_call_id'];
      if (typeof id !== 'string' || !open.has(id)) issues.push(`${at} answers ${String(id)}, which no pending assistant tool call has`);
      else open.delete(id);
      if (typeof message['content'] !== 'string') issues.push(`${at}.content must be a string`);
      return;
    }
    closeTurn(at);
    if (role === 'assistant') {
      const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'].filter(isObject) : [];
      const content = message['content'];
      if ((content === null || content === undefined || content === '') && calls.length === 0) issues.push(`${at} has neither content nor tool calls`);
      for (const call of calls) {
        const fn = call['function'];
        if (typeof call['id'] !== 'string' || call['id'] === '') issues.push(`${at} has a tool call without an id`);
        else open.add(call['id']);
        if (!isObject(fn) || typeof fn['arguments'] !== 'string') issues.push(`${at} has tool call arguments that are not a JSON string`);
      }
    } else if (role !== 'system' && role !== 'user' && role !== 'developer') {
      issues.push(`${at}.role is ${JSON.stringify(role)}`);
    }
  });
  closeTurn('the end of the conversation');
  const tools = Array.isArray(body['tools']) ? body['tools'].filter(isObject) : [];
  const names = tools.map((tool) => (isObject(tool['function']) ? tool['function']['name'] : undefined));
  const choice = body['tool_choice'];
  if (choice !== undefined) {
    if (tools.length === 0) issues.push('tool_choice is set without tools');
    if (isObject(choice) && isObject(choice['function']) && !names.includes(choice['function']['name'])) {
      issues.push(`tool_choice names an unknown tool ${String(choice['function']['name'])}`);
    }
  }
  const strict = openAIStrictProblem(body);
  if (strict !== undefined) issues.push(strict.message);
  return issues;
}

/** Throws, listing every rule broken, when `body` is not a valid Chat Completions request. */
export function assertValidOpenAIRequest(body: unknown): void {
  const issues = openAIRequestIssues(body);
  if (issues.length > 0) throw new Error(`Invalid OpenAI request:\n- ${issues.join('\n- ')}`);
}
