import { Type } from '@sinclair/typebox';
import { Agent, idShapeGuard, type ModelTarget, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';

const PROJECT_ID = '5f0c6a2e-8d7b-4c1e-9a3f-2b6d8e4f1a90';

/** Creates a task (in memory, so the demo runs offline). */
export const createTask = tool({
  name: 'create_task',
  description: 'Create a task in a project. project_id must be a UUID from list_projects.',
  input: Type.Object(
    {
      project_id: Type.String({ format: 'uuid' }),
      title: Type.String({ minLength: 1 }),
      due_date: Type.String({ format: 'date-time' }),
      tags: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: false },
  ),
  execute: async (task) => ({ created: true, id: 'task-0001', ...task }),
});

/** Lists projects and their ids. */
export const listProjects = tool({
  name: 'list_projects',
  description: 'List the projects the user can add tasks to, with their UUIDs.',
  input: Type.Object({}),
  execute: async () => [{ id: PROJECT_ID, name: 'Website relaunch' }],
});

/** The scripted model: omits project_id and says "tomorrow", then fixes both when told. */
export function createTaskScript() {
  return scriptedModel([
    { toolCalls: [{ name: 'list_projects', arguments: {} }] },
    { toolCalls: [{ name: 'create_task', arguments: { title: 'Draft launch post', due_date: 'tomorrow' } }] },
    { toolCalls: [{ name: 'create_task', arguments: { project_id: PROJECT_ID, title: 'Draft launch post', due_date: '2026-11-23T09:00:00Z' } }] },
    'Created "Draft launch post" in Website relaunch, due 23 November at 09:00 UTC.',
  ]);
}

/** Builds the task agent: validated tool arguments with bounded re-asks, and a fabricated-id guard. */
export function createTaskAgent(target: ModelTarget = { provider: createTaskScript(), model: 'scripted-demo' }) {
  return Agent.create({ ...target, maxSteps: 5, toolRetries: 2 })
    .system(`You manage tasks. Today is 2026-11-22. Look up project ids with list_projects; never invent ids.`)
    .tools([listProjects, createTask])
    .guards([idShapeGuard({ fields: ['project_id'] })]);
}
