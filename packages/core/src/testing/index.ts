export { ScriptExhaustedError } from '../errors/script-exhausted-error';
export { type Script, type ScriptedModel, type ScriptedModelOptions, type ScriptedReply, type ScriptedTurn, scriptedModel } from './scripted-model';
export { retryScenario, type RetryScenarioOptions } from './retry-scenario';
