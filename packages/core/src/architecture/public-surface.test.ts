import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The names a package's entry exports, split into runtime values and types, read with the TypeScript parser. */
function exportsOf(entry: string): { readonly runtime: readonly string[]; readonly types: readonly string[]; readonly stars: number } {
  const file = new URL(`../../../${entry}`, import.meta.url);
  const source = ts.createSourceFile(entry, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const runtime: string[] = [];
  const types: string[] = [];
  let stars = 0;
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause || !ts.isNamedExports(clause)) {
        stars++;
        continue;
      }
      for (const element of clause.elements) (statement.isTypeOnly || element.isTypeOnly ? types : runtime).push(element.name.text);
      continue;
    }
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) types.push(statement.name.text);
    else if (ts.isVariableStatement(statement)) for (const declaration of statement.declarationList.declarations) runtime.push(declaration.name.getText(source));
    else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) runtime.push(statement.name.text);
  }
  return { runtime, types, stars };
}

/**
 * The public surface budget of API 1.0: what a user imports from each package's main entry,
 * runtime values and types alike. Integration helpers belong in `./internal`.
 */
const BUDGETS: Readonly<Record<string, number>> = {
  // The one usage type every package names (TokenUsage) took it from 46 to 47.
  'reliability/src/index.ts': 47,
  // Durable runs (the run store, its errors) took the budget from 50 to 55.
  // The two sides of the run result's union (CompleteRunResult, SuspendedRunResult) took it to 57,
  // and the errors of a durable run and of a context the vendor refused as too long to 58.
  // Run records for exporters (`onRecord`: RecordedRun, RunRecordListener) took it to 60.
  // The error of a run stopped in a loop of actions, which carries the partial result (ActionLoopError), took it to 61;
  // the run's journal (JournalEntry, JournalListener, RunStep, StoredRun for store authors) to 64,
  // RunCheckpoint going with the checkpoints.
  // Chat routes with approvals (chatStream, uiMessagesToInput and its ChatInput, memorySuspendedRuns
  // and the SuspendedRunStore it implements) took it to 69; streams that survive a reload (keepChatStream,
  // reconnectChatStream, memoryStreamChunks and the StreamChunkStore it implements) to 73.
  'core/src/index.ts': 73,
  // The provider spec and the kit every adapter shares (lowering, strict parts, error mapping,
  // finish parts, retry-after, secrets, continuation, attachments) and the one ProviderError.
  'provider/src/index.ts': 89,
};

describe('public surface', () => {
  it.each(Object.entries(BUDGETS))('%s stays within its budget of %i names', (entry, budget) => {
    const { runtime, types, stars } = exportsOf(entry);
    const total = runtime.length + types.length;
    console.log(`${entry}: ${total} names (${runtime.length} runtime, ${types.length} types), budget ${budget}`);
    expect(stars, 'a closed surface lists every name: no `export *`').toBe(0);
    expect(new Set([...runtime, ...types]).size, 'no name exported twice').toBe(total);
    expect(total).toBeLessThanOrEqual(budget);
  });

  it('docs/architecture.md states the same budgets as this test, and the README states none of its own', () => {
    const stated = (path: string): Record<string, number> => {
      const text = readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');
      return Object.fromEntries([...text.matchAll(/`@keel\/([a-z-]+)` at most (\d+)/g)].map(([, name, count]) => [`${name}/src/index.ts`, Number(count)]));
    };
    expect(stated('docs/architecture.md')).toEqual(BUDGETS);
    expect(stated('README.md')).toEqual({});
  });

  it('counts type exports, runtime exports and exported declarations alike', () => {
    const counted = exportsOf('core/src/architecture/fixtures/sample-index.ts');
    expect(counted).toEqual({ runtime: ['a', 'B', 'dee', 'f', 'G'], types: ['C', 'E', 'H', 'I'], stars: 1 });
  });
});
