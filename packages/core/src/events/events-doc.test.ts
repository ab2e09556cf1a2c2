import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_NAMES } from './event-names';

/** The fields every payload has, listed once above the table rather than in each row. */
const BASE_FIELDS = new Set(['runId', 'step', 'timestamp', 'parentRunId']);

/** Each event's payload fields from the `AgentEvents` type (name, `?` when optional), read with the TypeScript checker. */
function typedFields(): Map<string, string[]> {
  const file = fileURLToPath(new URL('./agent-events.ts', import.meta.url));
  const program = ts.createProgram([file], { strict: true, exactOptionalPropertyTypes: true, noEmit: true, customConditions: ['@keel/source'], moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const events = source?.statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === 'AgentEvents');
  if (!events) throw new Error('AgentEvents not found');
  const fields = new Map<string, string[]>();
  for (const member of checker.getTypeAtLocation(events).getProperties()) {
    const payload = checker.getTypeOfSymbolAtLocation(member, events);
    const names = payload
      .getProperties()
      .filter((property) => !BASE_FIELDS.has(property.name))
      .map((property) => {
        const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
        return { name: property.name, optional };
      })
      // `toolCallId` of a re-ask's events (optional there) is described in the notes under the table.
      .filter((field) => !(field.name === 'toolCallId' && field.optional))
      .map((field) => `${field.name}${field.optional ? '?' : ''}`);
    fields.set(member.name, names.sort());
  }
  return fields;
}

/** Strips every parenthesised aside (nested ones included) from a table cell. */
function withoutAsides(text: string): string {
  let depth = 0;
  let kept = '';
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) kept += char;
  }
  return kept;
}

/** Each row of the table in docs/events.md: the event and the fields it lists (an explanation after ` — ` left out). */
function documentedFields(): Map<string, string[]> {
  const doc = readFileSync(fileURLToPath(new URL('../../../../docs/events.md', import.meta.url)), 'utf8');
  const fields = new Map<string, string[]>();
  for (const line of doc.split('\n')) {
    const row = /^\| `([a-z]+\.[a-z-]+)` \| (.*) \|$/.exec(line);
    if (!row) continue;
    const [, event = '', cell = ''] = row;
    const listed = withoutAsides(cell).split(' — ')[0] ?? '';
    const names = listed
      .split(',')
      .map((part) => /`([A-Za-z]+\??)`/.exec(part.trim())?.[1])
      .filter((name): name is string => name !== undefined);
    fields.set(event, names.sort());
  }
  return fields;
}

describe('docs/events.md', () => {
  const typed = typedFields();
  const documented = documentedFields();

  it('lists every event of the type map, and no other', () => {
    expect([...documented.keys()].sort()).toEqual([...AGENT_EVENT_NAMES].sort());
    expect([...typed.keys()].sort()).toEqual([...AGENT_EVENT_NAMES].sort());
  });

  it.each([...AGENT_EVENT_NAMES])('names the payload fields of %s as its type does (optional ones with ?)', (event) => {
    expect(documented.get(event)).toEqual(typed.get(event));
  });
});
