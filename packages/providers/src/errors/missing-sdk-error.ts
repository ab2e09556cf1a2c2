const marker = Symbol.for('keel.error.MissingSdkError');
/** The marker every Keel error carries, so `KeelError.isKeelError` recognises this one too. */
const keelErrorMarker = Symbol.for('keel.error');

/** Constructor fields of {@link MissingSdkError}. */
export interface MissingSdkErrorOptions {
  /** The vendor SDK package that could not be loaded, e.g. `openai`. */
  readonly sdk: string;
  /** The version range Keel supports, e.g. `^6.30.0`. */
  readonly range: string;
  /** The Keel provider that needs it, e.g. `openai`. */
  readonly provider: string;
  /** The module loader's error. */
  readonly cause?: unknown;
}

/**
 * A provider's vendor SDK is not installed. Each SDK is an optional peer dependency of
 * `@keel/providers`, so a project installs only the ones it uses; the first call of a provider
 * whose SDK is missing throws this, naming the package to install. Not retryable (`bad-request`).
 */
export class MissingSdkError extends Error {
  private readonly [marker] = true;
  private readonly [keelErrorMarker] = true;
  override readonly name = 'MissingSdkError';
  /** The missing package. */
  readonly sdk: string;
  /** The provider that needs it. */
  readonly provider: string;
  /** The gate never retries a missing package. */
  readonly errorKind = 'bad-request' as const;
  readonly retryable = false;

  constructor({ sdk, range, provider, cause }: MissingSdkErrorOptions) {
    super(`the ${provider} provider needs the "${sdk}" package, which is not installed: add it to your project (npm install ${sdk}@"${range}")`, cause === undefined ? undefined : { cause });
    this.sdk = sdk;
    this.provider = provider;
  }

  /** True for a `MissingSdkError` from any copy of this package. */
  static isInstance(value: unknown): value is MissingSdkError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
