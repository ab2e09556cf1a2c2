/** One server-sent event: `data` is JSON-encoded unless it is a string. */
export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

/** How a scripted event stream ends. */
export type SseEnding =
  /** The response ends normally after the last event. */
  | 'complete'
  /** The response ends cleanly but early: the client sees a well-formed but truncated stream. */
  | 'end'
  /** The socket is destroyed after the events: the connection drops mid-way. */
  | 'destroy'
  /** Nothing more is sent and the connection stays open. */
  | 'hang';

/** What a computed reply reads of the request it answers. */
export interface RespondedRequest {
  readonly path: string;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
}

/** A scripted answer to one request, replayed by the wire server. */
export type WireReply =
  | {
      readonly type: 'json';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: unknown;
      /** Sent instead of `body` when set: JSON text as it is (duplicate keys, long numbers). */
      readonly rawBody?: string;
    }
  | {
      readonly type: 'sse';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly events: readonly SseEvent[];
      readonly ending: SseEnding;
      /** Pause between events, in milliseconds. */
      readonly delayMs: number;
    }
  /**
   * A reply computed from the request it answers (a simulated model: it reads the request's
   * schemas and tools). A `respond` that throws is answered with a 599 naming the error.
   */
  | { readonly type: 'respond'; readonly respond: (request: RespondedRequest) => WireReply }
  /** The socket is destroyed before any response: a connection reset. */
  | { readonly type: 'reset' }
  /** No response ever; the connection stays open. */
  | { readonly type: 'hang' };

/** A JSON response (status 200 unless given). */
export function jsonReply(body: unknown, options: { status?: number; headers?: Record<string, string> } = {}): WireReply {
  return { type: 'json', status: options.status ?? 200, headers: options.headers ?? {}, body };
}

/**
 * A JSON response whose body is `text` exactly as given, for what `JSON.stringify` cannot write:
 * duplicate keys, numbers beyond a double's precision.
 */
export function rawJsonReply(text: string, options: { status?: number } = {}): WireReply {
  return { type: 'json', status: options.status ?? 200, headers: {}, body: undefined, rawBody: text };
}

/** An error response with a JSON body and the given status and headers. */
export function errorReply(status: number, body: unknown, headers: Record<string, string> = {}): WireReply {
  return { type: 'json', status, headers, body };
}

/** A `text/event-stream` response replaying `events`, ending as `ending` says (default complete). */
export function sseReply(
  events: readonly SseEvent[],
  options: { ending?: SseEnding; delayMs?: number; status?: number; headers?: Record<string, string> } = {},
): WireReply {
  return {
    type: 'sse',
    status: options.status ?? 200,
    headers: options.headers ?? {},
    events,
    ending: options.ending ?? 'complete',
    delayMs: options.delayMs ?? 0,
  };
}

/** A reply computed from the request it answers. */
export function respondReply(respond: (request: RespondedRequest) => WireReply): WireReply {
  return { type: 'respond', respond };
}

/** A connection reset: the socket is destroyed before any response. */
export function resetReply(): WireReply {
  return { type: 'reset' };
}

/** A server that never answers. */
export function hangReply(): WireReply {
  return { type: 'hang' };
}

/** Encodes one server-sent event as written on the wire. */
export function encodeSseEvent({ event, data }: SseEvent): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`;
}
