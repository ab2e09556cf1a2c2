export { ScriptExhaustedError } from '../errors/script-exhausted-error';
export { type Script, type ScriptedModel, type ScriptedReply, type ScriptedTurn, scriptedModel } from './scripted-model';
