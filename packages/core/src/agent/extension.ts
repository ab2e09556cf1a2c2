import type { AgentBuilder } from './agent-builder';

/**
 * An integration, attached with `builder.use(extension)`: a function from builder to builder that
 * adds listeners, tools, guards or rules (`telemetry()`, `consoleTrace()`, `recordTrace()`).
 * Generic over the builder's output type, so one extension fits every agent.
 */
export type Extension = <TOutput>(builder: AgentBuilder<TOutput>) => AgentBuilder<TOutput>;
