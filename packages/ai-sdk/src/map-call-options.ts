import type { JSONSchema7, LanguageModelV3CallOptions, LanguageModelV3FunctionTool, LanguageModelV3ToolChoice, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelRequest, ToolChoice } from '@keel/provider';
import { mapPrompt, type PromptSettings } from './map-prompt';

/** What the adapter adds to every call. */
export interface CallSettings extends PromptSettings {
  /** Whether the last tool definition takes the cache breakpoint too. */
  readonly cacheTools: boolean;
  /** Provider options sent with every call (e.g. `{ google: { thinkingConfig: { thinkingBudget: 0 } } }`). */
  readonly providerOptions: SharedV3ProviderOptions | undefined;
}

/** Maps a Keel tool choice: `auto`, `required`, `none`, a named tool → `{ type: 'tool', toolName }` (forced). */
export function mapToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  return choice.type === 'tool' ? { type: 'tool', toolName: choice.name } : { type: choice.type };
}

/**
 * Maps a Keel request to the spec's call options: the prompt, function tools (`strict` passed on
 * when core set it, a cache breakpoint on the last one where the provider takes it), the tool
 * choice, `maxOutputTokens`, `temperature`, `stopSequences`, native structured output as
 * `responseFormat: { type: 'json', schema, name }`, the provider options and the abort signal.
 */
export function mapCallOptions(request: ModelRequest, settings: CallSettings, signal: AbortSignal | undefined): LanguageModelV3CallOptions {
  const tools = request.tools ?? [];
  const { cacheBreakpoint } = settings;
  const functionTools = tools.map(
    (tool, index): LanguageModelV3FunctionTool => ({
      type: 'function',
      name: tool.name,
      ...(tool.description === '' ? {} : { description: tool.description }),
      inputSchema: tool.inputSchema as JSONSchema7,
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
      ...(settings.cacheTools && cacheBreakpoint !== undefined && index === tools.length - 1 ? { providerOptions: cacheBreakpoint } : {}),
    }),
  );
  const format = request.responseFormat;
  return {
    prompt: mapPrompt(request, settings),
    ...(functionTools.length === 0 ? {} : { tools: functionTools, toolChoice: mapToolChoice(request.toolChoice ?? { type: 'auto' }) }),
    ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.stop === undefined || request.stop.length === 0 ? {} : { stopSequences: [...request.stop] }),
    ...(format === undefined
      ? {}
      : {
          responseFormat: {
            type: 'json',
            ...(format.schema === undefined ? {} : { schema: format.schema as JSONSchema7 }),
            ...(format.name === undefined ? {} : { name: format.name }),
          },
        }),
    ...(settings.providerOptions === undefined ? {} : { providerOptions: settings.providerOptions }),
    ...(signal === undefined ? {} : { abortSignal: signal }),
  };
}
