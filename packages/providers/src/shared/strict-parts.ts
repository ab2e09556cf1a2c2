import type { ModelRequest } from '@keel/core';

/** The strict schemas a request sends: the native output format, and which tools are strict. */
export interface StrictParts {
  /** `responseFormat.strict` with a schema: sent as the vendor's native output format. */
  readonly output: boolean;
  /** Positions (in `request.tools`, as sent) of the tools with `strict: true`. */
  readonly strictTools: readonly number[];
}

/** Which strict schemas `request` sends, so a 400 can be matched to the one it refused. */
export function strictPartsOf(request: ModelRequest): StrictParts {
  const tools = request.tools ?? [];
  return {
    output: request.responseFormat?.strict === true && request.responseFormat.schema !== undefined,
    strictTools: tools.flatMap((tool, index) => (tool.strict === true ? [index] : [])),
  };
}

/** The first string among `candidates`, or `''`. */
export function firstString(...candidates: unknown[]): string {
  for (const candidate of candidates) if (typeof candidate === 'string') return candidate;
  return '';
}
