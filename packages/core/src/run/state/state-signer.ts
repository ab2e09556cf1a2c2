import { AgentConfigurationError } from '../../errors/agent-configuration-error';

/** Signs and checks run states with one key (HMAC-SHA-256 through Web Crypto). */
export interface StateSigner {
  sign(text: string): Promise<string>;
  /** Constant-time. */
  verify(text: string, signature: string): Promise<boolean>;
  /** True when the key was made at random for this agent: its states resume only in this process. */
  readonly ephemeral: boolean;
}

/** The shortest `stateKey` accepted, in bytes (a string counts its UTF-8 bytes). */
export const MIN_STATE_KEY_BYTES = 32;

const encoder = new TextEncoder();

/** Bytes in a buffer of their own, as Web Crypto takes them. */
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

const toHex = (bytes: ArrayBuffer): string => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/**
 * A signer with the agent's `stateKey` (at least 32 bytes: a string of that many characters, or
 * bytes), or, without one, with 32 random bytes made for this agent alone.
 * @throws {AgentConfigurationError} (setting `stateKey`) for a key that is too short or not a string or bytes.
 */
export function stateSigner(stateKey: unknown): StateSigner {
  let raw: Uint8Array<ArrayBuffer>;
  if (stateKey === undefined) raw = globalThis.crypto.getRandomValues(new Uint8Array(32));
  else if (typeof stateKey === 'string') raw = own(encoder.encode(stateKey));
  else if (stateKey instanceof Uint8Array) raw = own(stateKey);
  else throw new AgentConfigurationError({ setting: 'stateKey', message: 'give a string or a Uint8Array' });
  if (raw.length < MIN_STATE_KEY_BYTES) throw new AgentConfigurationError({ setting: 'stateKey', message: `must be at least ${MIN_STATE_KEY_BYTES} bytes (e.g. 32 random bytes, as hex or base64), got ${raw.length}` });
  const native = nativeHmac();
  if (native) {
    return {
      ephemeral: stateKey === undefined,
      sign: (text) => Promise.resolve(native.createHmac('sha256', raw).update(text).digest('hex')),
      verify: (text, signature) => {
        const bytes = fromHex(signature);
        if (!bytes || bytes.length !== 32) return Promise.resolve(false);
        return Promise.resolve(native.timingSafeEqual(native.createHmac('sha256', raw).update(text).digest(), bytes));
      },
    };
  }
  let key: ReturnType<typeof globalThis.crypto.subtle.importKey> | undefined;
  const cryptoKey = () => (key ??= globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  return {
    ephemeral: stateKey === undefined,
    async sign(text) {
      return toHex(await globalThis.crypto.subtle.sign('HMAC', await cryptoKey(), own(encoder.encode(text))));
    },
    async verify(text, signature) {
      const bytes = fromHex(signature);
      if (!bytes || bytes.length !== 32) return false;
      return globalThis.crypto.subtle.verify('HMAC', await cryptoKey(), bytes, own(encoder.encode(text)));
    },
  };
}

/** What a signer needs of `node:crypto`. */
interface NativeHmac {
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(text: string): { digest(): Uint8Array; digest(encoding: 'hex'): string } };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/**
 * The runtime's own HMAC where it has one (Node, Bun and Deno give `node:crypto` through
 * `process.getBuiltinModule`): the same HMAC-SHA-256, signed in a few microseconds where Web
 * Crypto takes over a hundred (a durable run signs each journal entry). Elsewhere (a browser),
 * Web Crypto. No import names it, so a browser bundle never asks for it.
 */
function nativeHmac(): NativeHmac | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process;
  try {
    const crypto = runtime?.getBuiltinModule?.('node:crypto') as Partial<NativeHmac> | undefined;
    return typeof crypto?.createHmac === 'function' && typeof crypto.timingSafeEqual === 'function' ? (crypto as NativeHmac) : undefined;
  } catch {
    return undefined;
  }
}

/** A digest naming an agent's shape: its tools' names and input schemas, and its output schema. */
export async function agentDigest(description: unknown, canonical: (value: unknown) => string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', own(encoder.encode(canonical(description))));
  return `sha256:${toHex(digest)}`;
}
