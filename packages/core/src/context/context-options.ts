import type { ModelTarget } from '../contracts/agent-options';

/**
 * How an agent keeps a long run inside the model's context window (`.context()` of the builder).
 * Compaction is on by default, at 0.8 of the window the provider declares for the model
 * (`capabilities(model).contextWindow`): before a step whose estimated request passes that share,
 * the run compacts what it sends (never what it keeps), cheapest tier first. See docs/long-runs.md.
 */
export interface ContextOptions {
  /** Compact before a step whose estimated request passes this share of the window, in (0, 1]. Default 0.8. */
  readonly compactAt?: number;
  /** The latest tool results never cleared. Default 3. */
  readonly keepRecent?: number;
  /**
   * Who writes the summary of older turns when clearing tool results is not enough: the agent's
   * model (default), another `{ provider, model }`, or `false` never to summarize.
   */
  readonly summarize?: ModelTarget | false;
  /** Memory keeps the compacted history (cleared results as their markers, summarized turns as the summary) instead of every message. Default false. */
  readonly persist?: boolean;
  /** The window in tokens, when the provider does not declare it (or to plan for a smaller one). Default: the provider's `capabilities(model).contextWindow`, the smallest of the targets'. */
  readonly contextWindow?: number;
}

/**
 * The share of `compactAt` a compaction brings the request down to: 0.4 (at the default 0.8, a
 * third of the window), so tool results of a few thousand tokens a step put the next compaction
 * five or more steps away and the prompt cache is broken rarely.
 */
const COMPACTION_TARGET_SHARE = 0.4;

/** The resolved context policy of an agent, part of its run configuration. */
export interface ContextConfig {
  readonly compactAt: number;
  /** Compact down to this share of the window (`COMPACTION_TARGET_SHARE` of `compactAt`), well under the trigger, so the next compaction is many steps away. */
  readonly target: number;
  readonly keepRecent: number;
  readonly summarize: ModelTarget | false;
  readonly persist: boolean;
  /** The window the run plans for; without one a run compacts only when the vendor refuses a request as too long. */
  readonly window: number | undefined;
  /** Whether a vendor's context-length refusal is compacted and retried once (off with `reliability({ defaults: false })`). */
  readonly recoverOverflow: boolean;
}

/** A problem with the options, as `[setting, message]`, or the resolved policy. */
export function resolveContext(
  given: ContextOptions | false | undefined,
  targets: readonly ModelTarget[],
  defaults: boolean,
): { readonly config: ContextConfig | undefined } | { readonly problem: readonly [string, string] } {
  if (given === false) return { config: undefined };
  const options: ContextOptions = given ?? {};
  if (typeof options !== 'object' || options === null) return { problem: ['context', `takes an options object or false, got ${String(options)}`] };
  const { compactAt = 0.8, keepRecent = 3, persist = false, contextWindow } = options;
  if (!(typeof compactAt === 'number' && compactAt > 0 && compactAt <= 1)) return { problem: ['context.compactAt', `must be a share of the window in (0, 1], got ${String(compactAt)}`] };
  if (!(Number.isInteger(keepRecent) && keepRecent >= 0)) return { problem: ['context.keepRecent', `must be a whole number >= 0, got ${String(keepRecent)}`] };
  if (typeof persist !== 'boolean') return { problem: ['context.persist', `must be true or false, got ${String(persist)}`] };
  if (contextWindow !== undefined && !(Number.isSafeInteger(contextWindow) && contextWindow >= 1)) return { problem: ['context.contextWindow', `must be a whole number of tokens >= 1, got ${String(contextWindow)}`] };
  const summarize = options.summarize ?? (targets[0] as ModelTarget);
  if (summarize !== false && (typeof summarize !== 'object' || summarize === null || typeof summarize.provider?.generate !== 'function' || typeof summarize.model !== 'string' || summarize.model.trim() === '')) {
    return { problem: ['context.summarize', 'must be { provider, model } or false'] };
  }
  return { config: Object.freeze({ compactAt, target: compactAt * COMPACTION_TARGET_SHARE, keepRecent, summarize, persist, window: contextWindow ?? smallestWindow(targets), recoverOverflow: defaults }) };
}

/** The smallest window the targets declare, when any does. */
function smallestWindow(targets: readonly ModelTarget[]): number | undefined {
  let smallest: number | undefined;
  for (const target of targets) {
    let window: unknown;
    try {
      window = target.provider.capabilities?.(target.model)?.contextWindow;
    } catch {
      window = undefined;
    }
    if (typeof window === 'number' && Number.isSafeInteger(window) && window >= 1) smallest = Math.min(smallest ?? window, window);
  }
  return smallest;
}
