import { AbortedError, type ModelProvider, type ModelRequest, type ModelResponse, type ModelStreamPart } from '@keel/core';
import type { ModelCallOptions } from '@keel/provider';
import { RecordedCallError } from '../errors/recorded-call-error';
import { canonicalRequest, type JsonObject } from './canonical-request';
import { readCassetteFile } from './cassette-file';
import type { CassetteInteraction } from './cassette-format';
import { type CallKind, CassetteStore } from './cassette-store';
import { CassetteError } from '../errors/cassette-error';
import { recordedErrorOf } from './recorded-error';
import { environmentSecrets, secretScrubber, type SecretScrubber } from './scrub-secrets';

/**
 * `record`: every call goes to the provider and is recorded; the file is started afresh at the
 * first recording. `replay`: every call is answered from the file, never from the provider; a
 * request not in it fails with a `CassetteError` (`unrecorded`). `auto`: answered from the file when recorded,
 * otherwise sent to the provider and added to the file.
 */
export type CassetteMode = 'record' | 'replay' | 'auto';

/** Options of {@link cassette}. */
export interface CassetteOptions {
  /** The cassette file (JSON). Its folder is created when missing. */
  readonly path: string;
  readonly mode: CassetteMode;
  /**
   * Strings never written to the file (replaced by `[redacted]`), besides the provider's own
   * redaction, the environment's variables named like keys, tokens, secrets and passwords, the
   * values of credential-named fields, and text shaped like vendor keys and bearer tokens.
   */
  readonly secrets?: readonly string[];
  /**
   * Text of your own requests that changes from run to run and does not change the answer
   * (today's date in a system prompt): each match, anywhere in a request, reads as `<volatile>`
   * when requests are stored and matched. Tool-call ids, and UUIDs and date-times inside tool
   * results, are normalised without it; every other value must be equal for a recording to answer.
   */
  readonly volatile?: readonly RegExp[];
}

/** A provider that answers from a cassette file, recording into it as its mode says. */
export interface Cassette extends ModelProvider {
  readonly path: string;
  readonly mode: CassetteMode;
  /** Calls answered from the file so far. */
  readonly replayed: number;
  /** Calls sent to the provider and written to the file so far. */
  readonly recorded: number;
}

const clone = <T>(value: T): T => structuredClone(value);

function checkOptions(provider: unknown, options: unknown): asserts options is CassetteOptions {
  const given = options as Partial<CassetteOptions> | undefined;
  if (typeof (provider as Partial<ModelProvider> | null)?.generate !== 'function') throw new TypeError('cassette(provider, options): provider must be a Keel model provider (with generate)');
  if (typeof given?.path !== 'string' || given.path === '') throw new TypeError('cassette(provider, options): options.path must be the cassette file path');
  if (given.mode !== 'record' && given.mode !== 'replay' && given.mode !== 'auto') throw new TypeError(`cassette(provider, options): options.mode must be 'record', 'replay' or 'auto', not ${JSON.stringify(given.mode)}`);
  if (given.secrets !== undefined && (!Array.isArray(given.secrets) || given.secrets.some((secret) => typeof secret !== 'string'))) throw new TypeError('cassette(provider, options): options.secrets must be an array of strings');
  if (given.volatile !== undefined && (!Array.isArray(given.volatile) || given.volatile.some((pattern) => !(pattern instanceof RegExp)))) throw new TypeError('cassette(provider, options): options.volatile must be an array of regular expressions');
}

function abortedBy(signal: AbortSignal | undefined): AbortedError | undefined {
  return signal?.aborted ? new AbortedError({ cause: signal.reason }) : undefined;
}

/** What a call's recording reads: its canonical request, secrets removed. */
function requestFor(scrub: SecretScrubber, request: ModelRequest, volatile: readonly RegExp[]): JsonObject {
  return scrub.value(canonicalRequest(request, volatile));
}

/**
 * Wraps a provider so its calls are recorded to, and replayed from, a cassette file. Each request
 * is stored canonical (keys sorted; tool-call ids, and UUIDs and timestamps inside tool results,
 * normalised; any other value that differs is a miss) with its
 * response, streams part by part and errors by what classifies them, so a replayed run makes the
 * same requests, emits the same events and returns the same result as the recorded one, with no
 * network. Identical requests replay in the order they were recorded. Secrets never reach the file
 * (see {@link CassetteOptions.secrets}). Writes are atomic and taken in turns under a lock file, so
 * concurrent runs may share a cassette and a killed process never leaves half a file.
 *
 * ```ts
 * const provider = cassette(anthropic(), { path: 'test/cassettes/triage.json', mode: process.env.RECORD ? 'record' : 'replay' });
 * ```
 * @throws {CassetteError} at once when the file is corrupt or of another version (`replay`
 *   and `auto` read it here), or when `replay` finds no file.
 */
export function cassette(provider: ModelProvider, options: CassetteOptions): Cassette {
  checkOptions(provider, options);
  const { path, mode } = options;
  const loaded = mode === 'record' ? undefined : readCassetteFile(path);
  if (mode === 'replay' && loaded === undefined) throw new CassetteError({ path, problem: 'missing', detail: "there is no such file to replay (record it first with mode 'record' or 'auto')" });
  const store = new CassetteStore(path, loaded, mode === 'record');
  const scrub = secretScrubber([...(options.secrets ?? []), ...environmentSecrets()], provider.redact?.bind(provider));
  const counts = { replayed: 0, recorded: 0 };
  const volatile = options.volatile ?? [];

  /** The recording for this call, taken; or the miss error in `replay`; or `undefined` to record. */
  const lookup = (call: CallKind, request: JsonObject): CassetteInteraction | undefined => {
    if (mode === 'record') return undefined;
    const hit = store.take(call, request);
    if (hit) counts.replayed++;
    else if (mode === 'replay') throw store.miss(mode, call, request);
    return hit;
  };
  const record = async (interaction: CassetteInteraction) => {
    await store.record(interaction);
    counts.recorded++;
  };

  const generate = async (request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> => {
    const aborted = abortedBy(callOptions.signal);
    if (aborted) throw aborted;
    const canonical = requestFor(scrub, request, volatile);
    const hit = lookup('generate', canonical);
    if (hit) {
      if ('error' in hit) throw new RecordedCallError(hit.error);
      if (hit.call === 'generate') return clone(hit.response);
    }
    let response: ModelResponse;
    try {
      response = await provider.generate(request, callOptions);
    } catch (error) {
      // An aborted call is the caller's doing, not the provider's answer: nothing to replay.
      if (!callOptions.signal?.aborted) await record({ call: 'generate', request: canonical, error: recordedErrorOf(error, scrub) });
      throw error;
    }
    await record({ call: 'generate', request: canonical, response: scrub.value(clone(response)) });
    return response;
  };

  const wrapped: Cassette = {
    specificationVersion: 'v1',
    name: provider.name,
    path,
    mode,
    get replayed() {
      return counts.replayed;
    },
    get recorded() {
      return counts.recorded;
    },
    generate,
    ...(provider.stream ? { stream: (request: ModelRequest, callOptions: ModelCallOptions) => streamCall({ provider, request, callOptions, scrub, volatile, lookup, record }) } : {}),
    ...(provider.redact ? { redact: (text: string) => (provider.redact as (text: string) => string)(text) } : {}),
    ...(provider.capabilities ? { capabilities: (modelId: string) => (provider.capabilities as NonNullable<ModelProvider['capabilities']>)(modelId) } : {}),
    ...(provider.lowerSchema ? { lowerSchema: (schema: Readonly<Record<string, unknown>>, purpose: 'output' | 'tool') => (provider.lowerSchema as NonNullable<ModelProvider['lowerSchema']>)(schema, purpose) } : {}),
  };
  return wrapped;
}

interface StreamCall {
  readonly provider: ModelProvider;
  readonly request: ModelRequest;
  readonly callOptions: ModelCallOptions;
  readonly scrub: SecretScrubber;
  readonly volatile: readonly RegExp[];
  readonly lookup: (call: CallKind, request: JsonObject) => CassetteInteraction | undefined;
  readonly record: (interaction: CassetteInteraction) => Promise<void>;
}

/**
 * One streamed call: replayed part by part from its recording, or streamed from the provider and
 * recorded once complete (written before the `finish` part is passed on), or once it failed. A
 * stream its consumer leaves early is not recorded: there is no complete answer to replay.
 */
async function* streamCall({ provider, request, callOptions, scrub, volatile, lookup, record }: StreamCall): AsyncGenerator<ModelStreamPart> {
  const aborted = abortedBy(callOptions.signal);
  if (aborted) throw aborted;
  const canonical = requestFor(scrub, request, volatile);
  const hit = lookup('stream', canonical);
  if (hit?.call === 'stream') {
    for (const part of hit.parts) {
      const stopped = abortedBy(callOptions.signal);
      if (stopped) throw stopped;
      yield clone(part);
    }
    if (hit.error) throw new RecordedCallError(hit.error);
    return;
  }
  const parts: ModelStreamPart[] = [];
  try {
    for await (const part of (provider.stream as NonNullable<ModelProvider['stream']>)(request, callOptions)) {
      parts.push(scrub.value(clone(part)));
      if (part.type === 'finish') await record({ call: 'stream', request: canonical, parts });
      yield part;
    }
  } catch (error) {
    if (!callOptions.signal?.aborted && parts.at(-1)?.type !== 'finish') await record({ call: 'stream', request: canonical, parts, error: recordedErrorOf(error, scrub) });
    throw error;
  }
}
