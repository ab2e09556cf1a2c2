import type { ModelProvider } from '@keel/provider';
import { type WireReply, wireServerPerTest } from '@keel/wire-server';

/**
 * An adapter under test against a wire server per test: `provider(options)` makes it on the
 * current server, `reply(...)` scripts the server, and after each test every request the adapter
 * sent is held to the vendor's rules by `check`.
 */
export function providerOnWire<TOptions>(make: (baseURL: string, options?: TOptions) => ModelProvider, check: (body: unknown) => void) {
  const server = wireServerPerTest((sent) => {
    for (const request of sent.requests) check(request.body);
  });
  return {
    server,
    provider: (options?: TOptions) => make(server().url, options),
    reply: (...replies: WireReply[]) => server().enqueue(...replies),
  };
}
