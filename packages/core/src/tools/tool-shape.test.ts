import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent';
import { scriptedModel } from '../testing/scripted-model';
import { type AnyTool, tool } from './tool';

const remove = tool({ name: 'delete_file', description: 'Deletes a file.', input: Type.Object({ path: Type.String() }), execute: () => 'deleted' });
const build = (candidate: unknown) => () => Agent.create({ provider: scriptedModel(['done']), model: 'scripted' }).tool(candidate as AnyTool).build();

describe('a tool object with malformed fields', () => {
  it('is refused by build() instead of running with the field ignored: { ...tool, needsApproval: true }', () => {
    expect(build({ ...remove, needsApproval: true })).toThrow(/tool:delete_file.*needsApproval on a tool object must be a function/);
  });

  it('refuses wrong forms of the other fields, and a specification that names another tool', () => {
    expect(build({ ...remove, retries: -1 })).toThrow(/retries must be a whole number/);
    expect(build({ ...remove, timeoutMs: '5s' })).toThrow(/timeoutMs must be a whole number/);
    expect(build({ ...remove, coerce: 'yes' })).toThrow(/coerce must be true or false/);
    expect(build({ ...remove, guards: ['no'] })).toThrow(/guards must be a list of functions/);
    expect(build({ ...remove, name: 'remove_file' })).toThrow(/specification\.name \("delete_file"\) must be the tool's name \("remove_file"\)/);
    expect(build({ ...remove, description: 42 })).toThrow(/description must be a string/);
    expect(build({ ...remove, effect: 'twice' })).toThrow(/effect must be 'none', 'idempotent' or 'once'/);
    expect(build({ ...remove, source: { watch: () => undefined } })).toThrow(/source must be an object with an observe\(\) method/);
  });

  it('takes a tool made by tool(), with or without approval', () => {
    expect(build(remove)).not.toThrow();
    expect(build(tool({ name: 'wipe', description: 'Wipes.', input: Type.Object({}), execute: () => 'ok', needsApproval: true }))).not.toThrow();
  });
});
