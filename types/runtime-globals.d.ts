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
  /** A signal that aborts when any of the given ones does. */
  any(signals: readonly AbortSignal[]): AbortSignal;
  /** A signal that aborts after the given time. */
  timeout(milliseconds: number): AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  readonly prototype: AbortController;
  new (): AbortController;
};

declare function setTimeout<A extends unknown[]>(callback: (...args: A) => void, milliseconds?: number, ...args: A): unknown;
declare function clearTimeout(handle: unknown): void;
declare function structuredClone<T>(value: T): T;

declare var performance: { now(): number };
/** The Web Crypto subset run states are signed with (HMAC-SHA-256) and agents named by (SHA-256). */
interface CryptoKey {
  readonly type: string;
}
interface SubtleCrypto {
  importKey(format: 'raw', keyData: Uint8Array, algorithm: { readonly name: 'HMAC'; readonly hash: 'SHA-256' }, extractable: boolean, keyUsages: ('sign' | 'verify')[]): Promise<CryptoKey>;
  sign(algorithm: 'HMAC', key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: 'HMAC', key: CryptoKey, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
  digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
}
declare var crypto: { randomUUID(): string; getRandomValues<T extends Uint8Array>(array: T): T; readonly subtle: SubtleCrypto };

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { readonly prototype: TextEncoder; new (): TextEncoder };

interface TextDecoder {
  decode(input?: Uint8Array, options?: { readonly stream?: boolean }): string;
}
declare var TextDecoder: {
  readonly prototype: TextDecoder;
  new (label?: string, options?: { readonly fatal?: boolean; readonly ignoreBOM?: boolean }): TextDecoder;
};

interface DOMException extends Error {
  readonly name: string;
}
declare var DOMException: { readonly prototype: DOMException; new (message?: string, name?: string): DOMException };

declare var console: { log(...data: unknown[]): void };

/** The WHATWG URL subset JSON Schema references resolve with (`$id`, `$ref`). */
interface URL {
  hash: string;
  readonly href: string;
}
declare var URL: {
  readonly prototype: URL;
  new (url: string, base?: string): URL;
};

/** The WHATWG streams subset a UI message stream is built on. */
interface ReadableStreamDefaultController<R = unknown> {
  enqueue(chunk: R): void;
  close(): void;
  error(reason?: unknown): void;
}
interface ReadableStream<R = unknown> {
  readonly locked: boolean;
  cancel(reason?: unknown): Promise<void>;
}
declare var ReadableStream: {
  readonly prototype: ReadableStream;
  new <R = unknown>(source: {
    pull?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
    cancel?(reason?: unknown): void | Promise<void>;
  }): ReadableStream<R>;
};

/** The Fetch `Response` a route handler returns. */
interface Response {
  readonly status: number;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly headers: { forEach(callback: (value: string, name: string) => void): void };
}
declare var Response: {
  readonly prototype: Response;
  new (body: ReadableStream<Uint8Array> | null, init?: { status?: number; statusText?: string; headers?: Record<string, string> }): Response;
};
