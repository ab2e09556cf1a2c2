/**
 * The few globals @keel/core and @keel/reliability use, as every runtime they support provides
 * them (Node 20+, Bun, Deno, browsers, Cloudflare Workers, Vercel Edge). These packages compile
 * without Node or DOM types, so any other host API is a compile error rather than a runtime one.
 */

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

declare var AbortSignal: {
  readonly prototype: AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  readonly prototype: AbortController;
  new (): AbortController;
};

declare function setTimeout(callback: () => void, milliseconds?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function structuredClone<T>(value: T): T;

declare var performance: { now(): number };
declare var crypto: { randomUUID(): string };
