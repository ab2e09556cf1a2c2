import type { ModelRequest, SchemaRejection } from '../spec/model-provider-v1';

/** The strict schemas a request sends: the native output format, and which tools are strict. */
export interface StrictParts {
  /** `responseFormat.strict` with a schema: sent as the vendor's native output format. */
  readonly output: boolean;
  /** Positions (in `request.tools`, as sent) of the tools with `strict: true`. */
  readonly strictTools: readonly number[];
}

/** Which strict schemas `request` sends, so a 400 can be matched to the one it refused. */
export function strictPartsOf(request: Pick<ModelRequest, 'responseFormat' | 'tools'>): StrictParts {
  const tools = request.tools ?? [];
  return {
    output: request.responseFormat?.strict === true && request.responseFormat.schema !== undefined,
    strictTools: tools.flatMap((tool, index) => (tool.strict === true ? [index] : [])),
  };
}

/** What a vendor's refusal names, as an adapter reads it from the error. */
export interface RefusalNames {
  /** The refusal is about the native output format. */
  readonly output?: boolean;
  /** The refusal is about a tool's schema: the tool's position when the vendor says it, else `true`. */
  readonly tool?: boolean | number;
  /**
   * The refusal is about the request's schemas as a whole (a grammar limit that names none):
   * it counts against every strict schema sent, when no part named above was sent strict.
   */
  readonly requestWide?: boolean;
}

/**
 * Which strict schema a refusal is about, given what the request sent strict: only parts sent
 * strict count, so a schema error without them is a plain bad request (`undefined`). A named tool
 * position that was not strict is never a schema rejection; a request-wide limit falls on every
 * strict schema sent (`both` when the output format and strict tools were).
 */
export function schemaRejectionFor(sent: StrictParts, named: RefusalNames): SchemaRejection | undefined {
  const output = named.output === true && sent.output;
  const tool = typeof named.tool === 'number' ? sent.strictTools.includes(named.tool) : named.tool === true && sent.strictTools.length > 0;
  if (output && tool) return 'both';
  if (output) return 'output';
  if (tool) return 'tool';
  if (typeof named.tool === 'number' || named.requestWide !== true) return undefined;
  if (sent.output && sent.strictTools.length > 0) return 'both';
  if (sent.output) return 'output';
  return sent.strictTools.length > 0 ? 'tool' : undefined;
}

/** The first string among `candidates`, or `''`. */
export function firstString(...candidates: unknown[]): string {
  for (const candidate of candidates) if (typeof candidate === 'string') return candidate;
  return '';
}
