import { AiSdkProviderError } from './ai-sdk-provider-error';

/** An answer that breaks the spec: kind `bad-response`, retried like a server fault. */
export function badResponse(provider: string, problem: string): AiSdkProviderError {
  return new AiSdkProviderError({ message: `${provider}: the model's answer breaks the language model spec: ${problem}`, errorKind: 'bad-response', provider });
}

/** `a string`, `null`, `missing`: what a field was, without its value. */
export function shapeOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
