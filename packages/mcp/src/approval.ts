/**
 * Which MCP tool calls need a person's approval: every call (`true`), by the server's tool name
 * (`{ delete_file: true }`), or decided per call from the tool's name on the server and the
 * validated arguments.
 */
export type McpApproval = boolean | Readonly<Record<string, boolean>> | ((name: string, input: unknown) => boolean | Promise<boolean>);

/** What a Keel tool's `needsApproval` takes. */
type ToolApproval = boolean | ((input: unknown) => boolean | Promise<boolean>);

const isMap = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why the option is malformed, or undefined when it is fine. */
export function checkApprovalOption(option: unknown): string | undefined {
  if (option === undefined || typeof option === 'boolean' || typeof option === 'function') return undefined;
  if (!isMap(option)) return 'must be true, false, a map from tool names to true/false, or a function (name, input) => boolean';
  const bad = Object.entries(option).find(([, value]) => typeof value !== 'boolean');
  return bad === undefined ? undefined : `the entry ${JSON.stringify(bad[0])} must be true or false, got ${JSON.stringify(bad[1]) ?? typeof bad[1]}`;
}

/** The tools a map names that the server does not list (a misspelt name would never ask for approval). */
export function unknownApprovalNames(option: McpApproval | undefined, listed: readonly string[]): string[] {
  if (!isMap(option)) return [];
  return Object.keys(option).filter((name) => !listed.includes(name));
}

/** The `needsApproval` of one server tool's Keel tool, or undefined when its calls never need approval. */
export function approvalFor(option: McpApproval | undefined, serverName: string): ToolApproval | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return true;
  if (typeof option === 'function') return (input: unknown) => option(serverName, input);
  return Object.hasOwn(option, serverName) && option[serverName] === true ? true : undefined;
}
