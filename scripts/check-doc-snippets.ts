/**
 * Every ```ts snippet in README.md, docs/*.md and the packages' READMEs is compiled against the packages' sources
 * (strict, like the packages), each as a module of its own. Snippets that need names from the
 * prose (a `builder` from an earlier snippet, say) get them from CONTEXT below, as declarations
 * only. Snippets that run offline (on the scripted model, with nothing declared) are then run,
 * and must exit cleanly. Usage: `pnpm docs:check`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Inside the examples package, so `@keel/*` resolve to the workspace packages (their sources). */
const outDir = join(root, 'examples', '.doc-snippets');

/**
 * Names the prose gives a snippet (a `builder` or `agent` made in an earlier snippet, a helper the
 * text describes), declared only, by document. A declaration is added to a snippet that uses the
 * name without defining it.
 */
const CONTEXT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '*': {
    builder: "declare const builder: import('@keel/core').AgentBuilder<string>;",
    agent: "declare const agent: import('@keel/core').Agent<string>;",
  },
  'docs/strict-output.md': {
    builder: "declare const builder: import('@keel/core').AgentBuilder<string>;",
    agent: "declare const agent: import('@keel/core').Agent<{ action: 'refund' | 'reject'; amount: number }>;",
    RefundDecision:
      "const RefundDecision = (await import('@sinclair/typebox')).Type.Object({ action: (await import('@sinclair/typebox')).Type.Union([(await import('@sinclair/typebox')).Type.Literal('refund'), (await import('@sinclair/typebox')).Type.Literal('reject')]), amount: (await import('@sinclair/typebox')).Type.Number() });",
  },
};

/** Whether a snippet defines `name` itself (a declaration or an import). */
const defines = (code: string, name: string) =>
  new RegExp(`(?:const|let|function|class|interface|type)\\s+${name}\\b|import[^;]*\\b${name}\\b[^;]*from`).test(code);

function contextFor(document: string, code: string): string {
  const names = { ...CONTEXT['*'], ...CONTEXT[document] };
  return Object.entries(names)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !defines(code, name))
    .map(([, declaration]) => `${declaration}\n`)
    .join('');
}

interface Snippet {
  readonly document: string;
  readonly index: number;
  readonly line: number;
  readonly code: string;
}

function snippetsOf(document: string): Snippet[] {
  const lines = readFileSync(join(root, document), 'utf8').split('\n');
  const snippets: Snippet[] = [];
  for (let at = 0; at < lines.length; at++) {
    const fence = /^(\s*)```(ts|typescript)\s*$/.exec(lines[at] as string);
    if (!fence) continue;
    // A package README may mark a snippet that needs software Keel does not install.
    const skipped = /<!-- docs:check skip: .+ -->/.test(lines[at - 1] ?? '') && document.startsWith('packages/');
    const indent = (fence[1] as string).length;
    const body: string[] = [];
    let end = at + 1;
    for (; end < lines.length && !/^\s*```\s*$/.test(lines[end] as string); end++) body.push((lines[end] as string).slice(indent));
    if (!skipped) snippets.push({ document, index: snippets.length + 1, line: at + 1, code: body.join('\n') });
    at = end;
  }
  return snippets;
}

/** A snippet of declarations only (an interface sketch) is compiled but has nothing to run. */
const declaresOnly = (code: string) => !/^(?:const|let|await|for|if|console|[a-z]+\()/m.test(code);

const packageReadmes = readdirSync(join(root, 'packages'))
  .map((name) => `packages/${name}/README.md`)
  .filter((path) => existsSync(join(root, path)));
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`), ...packageReadmes];
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const files: { readonly snippet: Snippet; readonly file: string; readonly runnable: boolean; readonly preludeLines: number }[] = [];
for (const document of documents) {
  for (const snippet of snippetsOf(document)) {
    const head = contextFor(document, snippet.code);
    const usesPrelude = head !== '';
    const file = join(outDir, `${document.replace(/[/.]/g, '-')}-${snippet.index}.ts`);
    // `export {}` keeps every snippet a module of its own (top-level await, no name clashes).
    // Snippets written "from a file in examples/src/" import its modules relatively.
    const code = snippet.code.replace(/from '\.\/(?!\.)/g, "from '../src/");
    writeFileSync(file, `${head}${code}\nexport {};\n`);
    const offline = !/\bdeclare\b/.test(snippet.code) && !usesPrelude && !/@keel\/providers|@keel\/redis|@keel\/bullmq|process\.env/.test(snippet.code);
    files.push({ snippet, file, runnable: offline && !declaresOnly(snippet.code), preludeLines: head === '' ? 0 : head.split('\n').length - 1 });
  }
}

const configPath = join(root, 'examples', 'tsconfig.json');
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => console.error(diagnostic.messageText) });
if (!config) throw new Error('examples/tsconfig.json could not be read');
const program = ts.createProgram(
  files.map(({ file }) => file),
  { ...config.options, noEmit: true, noUnusedLocals: false },
);
const errors = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file && diagnostic.file.fileName.startsWith(outDir));
for (const diagnostic of errors) {
  const entry = files.find(({ file }) => file === diagnostic.file?.fileName);
  const { line } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? { line: 0 };
  const where = entry ? `${entry.snippet.document}:${entry.snippet.line + 1 + line - entry.preludeLines}` : relative(root, diagnostic.file?.fileName ?? '');
  console.error(`${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

let failedRuns = 0;
const runnable = files.filter(({ runnable: yes }) => yes);
if (errors.length === 0) {
  for (const { snippet, file } of runnable) {
    try {
      execFileSync(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', file], { cwd: join(root, 'examples'), stdio: 'pipe', timeout: 30_000 });
    } catch (error) {
      failedRuns++;
      const output = error as { stderr?: Buffer; stdout?: Buffer };
      console.error(`${snippet.document}:${snippet.line} (snippet ${snippet.index}) failed when run:\n${String(output.stderr ?? '')}${String(output.stdout ?? '')}`);
    }
  }
}

console.log(`doc snippets: ${files.length} typechecked (${errors.length} errors), ${errors.length === 0 ? runnable.length : 0} run (${failedRuns} failed)`);
if (errors.length > 0 || failedRuns > 0) process.exit(1);
rmSync(outDir, { recursive: true, force: true });
