import { KeelError } from '@keel/provider';

const marker = Symbol.for('keel.error.MissingSdkError');

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
 * whose SDK is missing throws this, naming the package to install. A {@link KeelError}
 * (`KeelError.isKeelError` is true); not retryable (`bad-request`): the gate never retries a
 * missing package.
 */
export class MissingSdkError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'MissingSdkError';
  /** The missing package. */
  readonly sdk: string;
  /** The provider that needs it. */
  readonly provider: string;
  readonly errorKind = 'bad-request' as const;
  readonly retryable = false;

  constructor({ sdk, range, provider, cause }: MissingSdkErrorOptions) {
    super({ message: `the ${provider} provider needs the "${sdk}" package, which is not installed: add it to your project (npm install ${sdk}@"${range}")`, cause });
    this.sdk = sdk;
    this.provider = provider;
  }

  /** True for a `MissingSdkError` from any copy of this package (where `instanceof` fails). */
  static isInstance(value: unknown): value is MissingSdkError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
