import type { ModelRequest } from '@keel/provider';

/** Indices of requests whose messages do not start with every message of the request before (where the prompt cache breaks). */
export function prefixBreaks(requests: readonly ModelRequest[]): number[] {
  const breaks: number[] = [];
  for (let index = 1; index < requests.length; index++) {
    const before = (requests[index - 1] as ModelRequest).messages.map((message) => JSON.stringify(message));
    const now = (requests[index] as ModelRequest).messages.map((message) => JSON.stringify(message));
    if (!before.every((message, position) => now[position] === message)) breaks.push(index);
  }
  return breaks;
}
