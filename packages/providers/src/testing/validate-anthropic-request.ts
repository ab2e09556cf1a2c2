import { anthropicGrammarCounts, anthropicGrammarLimitProblem, anthropicStrictSchemaProblem, type GrammarCounts } from './strict-schema-rules';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blocksOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function countBreakpoints(body: Json): number {
  let count = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      if (value['cache_control'] !== undefined && value['cache_control'] !== null) count += 1;
      for (const [key, child] of Object.entries(value)) if (key !== 'cache_control') visit(child);
    }
  };
  visit(body['system']);
  visit(body['tools']);
  visit(body['messages']);
  return count;
}

function messageIssues(messages: unknown[]): string[] {
  const issues: string[] = [];
  let pendingToolUses: string[] = [];
  messages.forEach((message, index) => {
    const at = `messages[${index}]`;
    if (!isObject(message)) return void issues.push(`${at} is not an object`);
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant') issues.push(`${at}.role is ${JSON.stringify(role)}, expected user or assistant`);
    if (index === 0 && role !== 'user') issues.push(`${at} must be a user turn`);
    const previous = messages[index - 1];
    if (isObject(previous) && previous['role'] === role) issues.push(`${at} has the same role (${String(role)}) as the turn before: roles must alternate`);
    const content = message['content'];
    if (typeof content === 'string' ? content.trim() === '' : !Array.isArray(content) || content.length === 0) {
      issues.push(`${at} has empty content`);
    }
    const blocks = blocksOf(content);
    blocks.forEach((block, blockIndex) => {
      if (block['type'] === 'text' && (typeof block['text'] !== 'string' || block['text'].trim() === '')) {
        issues.push(`${at}.content[${blockIndex}] is an empty text block`);
      }
    });

    const results = blocks.filter((block) => block['type'] === 'tool_result');
    if (pendingToolUses.length > 0) {
      const answered = new Set(results.map((block) => block['tool_use_id']));
      for (const id of pendingToolUses) if (!answered.has(id)) issues.push(`tool_use ${id} is not answered by a tool_result in ${at}`);
      const firstOther = blocks.findIndex((block) => block['type'] !== 'tool_result');
      if (firstOther !== -1 && blocks.slice(firstOther).some((block) => block['type'] === 'tool_result')) {
        issues.push(`${at} has content before its tool_result blocks`);
      }
    }
    const expected = new Set(pendingToolUses);
    for (const result of results) {
      if (!expected.has(result['tool_use_id'] as string)) issues.push(`${at} has a tool_result for ${String(result['tool_use_id'])}, which the turn before did not call`);
    }
    if (role === 'assistant' && results.length > 0) issues.push(`${at} is an assistant turn with tool_result blocks`);
    pendingToolUses = role === 'assistant' ? blocks.filter((block) => block['type'] === 'tool_use').map((block) => String(block['id'])) : [];
  });
  if (pendingToolUses.length > 0 && messages.length > 0) {
    // A trailing assistant turn with tool_use is a prefill the API rejects.
    issues.push(`tool_use ${pendingToolUses.join(', ')} in the last turn is never answered`);
  }
  return issues;
}

/**
 * The 400 message Anthropic's API answers for the structured-output parts of a body, or
 * `undefined` when it accepts them: `output_config.format` must be `{ type: 'json_schema', schema }`
 * with a schema its decoder takes, every `strict: true` tool's `input_schema` likewise, and all of
 * them together within the grammar limits (24 optional properties, 16 unions, 20 strict tools).
 */
export function anthropicStrictProblem(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const counts: GrammarCounts[] = [];
  const config = body['output_config'];
  if (config !== undefined) {
    if (!isObject(config)) return 'output_config: Input should be a valid dictionary';
    const format = config['format'];
    if (format !== undefined && format !== null) {
      if (!isObject(format) || format['type'] !== 'json_schema') return "output_config.format.type: Input should be 'json_schema'";
      if (!isObject(format['schema'])) return 'output_config.format.schema: Field required';
      const problem = anthropicStrictSchemaProblem(format['schema'], 'output_config.format.schema');
      if (problem !== undefined) return problem;
      counts.push(anthropicGrammarCounts(format['schema']));
    }
  }
  const tools = Array.isArray(body['tools']) ? body['tools'] : [];
  let strictTools = 0;
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool) || tool['strict'] === undefined) continue;
    if (typeof tool['strict'] !== 'boolean') return `tools.${index}.custom.strict: Input should be a valid boolean`;
    if (!tool['strict']) continue;
    strictTools += 1;
    const problem = anthropicStrictSchemaProblem(tool['input_schema'], `tools.${index}.custom`);
    if (problem !== undefined) return problem;
    counts.push(anthropicGrammarCounts(tool['input_schema']));
  }
  return anthropicGrammarLimitProblem(counts, strictTools);
}

/**
 * Checks an outgoing Messages API body against the API's rules and returns what breaks them:
 * a model and a positive `max_tokens`; turns that start with user and alternate; no empty
 * content or text; every `tool_use` answered by a `tool_result` at the start of the next user
 * turn (and no stray results); tools defined when the history uses them; unique, valid tool
 * names; a forced tool that exists; at most four cache breakpoints; strict schemas the decoder
 * accepts ({@link anthropicStrictProblem}).
 */
export function anthropicRequestIssues(body: unknown): string[] {
  if (!isObject(body)) return ['the body is not a JSON object'];
  const issues: string[] = [];
  if (typeof body['model'] !== 'string' || body['model'] === '') issues.push('model is missing');
  const maxTokens = body['max_tokens'];
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) issues.push('max_tokens must be a positive integer');
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) issues.push('messages must be a non-empty array');
  else issues.push(...messageIssues(messages));
  if (typeof body['system'] === 'string' && body['system'].trim() === '') issues.push('system is empty');
  if (Array.isArray(body['system'])) {
    body['system'].forEach((block, index) => {
      if (!isObject(block) || typeof block['text'] !== 'string' || block['text'].trim() === '') issues.push(`system[${index}] is an empty text block`);
    });
  }
  const tools = Array.isArray(body['tools']) ? body['tools'].filter(isObject) : [];
  const names = tools.map((tool) => tool['name']);
  if (new Set(names).size !== names.length) issues.push('tool names are not unique');
  for (const tool of tools) {
    if (typeof tool['name'] !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool['name'])) issues.push(`tool name ${JSON.stringify(tool['name'])} is not valid`);
    if (!isObject(tool['input_schema']) || tool['input_schema']['type'] !== 'object') issues.push(`tool ${String(tool['name'])} has no object input_schema`);
  }
  const usesTools = Array.isArray(messages) && JSON.stringify(messages).includes('"type":"tool_use"');
  if (usesTools && tools.length === 0) issues.push('the messages contain tool_use blocks but no tools are defined');
  const choice = body['tool_choice'];
  if (choice !== undefined) {
    if (tools.length === 0) issues.push('tool_choice is set without tools');
    if (isObject(choice) && choice['type'] === 'tool' && !names.includes(choice['name'])) issues.push(`tool_choice names an unknown tool ${String(choice['name'])}`);
  }
  if (countBreakpoints(body) > 4) issues.push('more than 4 cache_control breakpoints');
  const strict = anthropicStrictProblem(body);
  if (strict !== undefined) issues.push(strict);
  return issues;
}

/** Throws, listing every rule broken, when `body` is not a valid Messages API request. */
export function assertValidAnthropicRequest(body: unknown): void {
  const issues = anthropicRequestIssues(body);
  if (issues.length > 0) throw new Error(`Invalid Anthropic request:\n- ${issues.join('\n- ')}`);
}
