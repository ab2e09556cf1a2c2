/**
 * No public type of the published packages resolves to `any` in a user's project: every export of
 * every entry point (its parameters, return types and public properties, three levels deep) is
 * read through the TypeScript compiler as the installed app sees it. Private members are skipped:
 * declaration files keep them untyped on purpose.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function checkNoAny({ root, app, specifiers, fail }) {
  const { default: ts } = await import(join(root, 'node_modules', 'typescript', 'lib', 'typescript.js'));
  const probe = join(app, 'no-any-probe.ts');
  writeFileSync(probe, specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';\nexport { entry${index} };`).join('\n'));
  const program = ts.createProgram([probe], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
  });
  const checker = program.getTypeChecker();
  const isPrivate = (declaration) => declaration && (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Private || (declaration.name && ts.isPrivateIdentifier(declaration.name)));
  const foreign = (declaration) => /node_modules\/(?!@keel\/)/.test(declaration.getSourceFile().fileName);
  const found = [];
  const inspect = (where, type, depth, seen) => {
    if (!type || seen.has(type) || depth > 3) return;
    seen.add(type);
    if (type.flags & ts.TypeFlags.Any) return void found.push(where);
    if (type.isUnionOrIntersection()) type.types.forEach((member) => inspect(where, member, depth, seen));
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const parameter of signature.getParameters()) inspect(`${where}(${parameter.name})`, checker.getTypeOfSymbol(parameter), depth + 1, seen);
      inspect(`${where}()`, signature.getReturnType(), depth + 1, seen);
    }
    if (!(type.flags & ts.TypeFlags.Object)) return;
    for (const property of type.getProperties()) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (!declaration || isPrivate(declaration) || foreign(declaration)) continue;
      inspect(`${where}.${property.name}`, checker.getTypeOfSymbol(property), depth + 1, seen);
    }
  };
  const source = program.getSourceFile(probe);
  for (const statement of source.statements.filter(ts.isImportDeclaration)) {
    const specifier = statement.moduleSpecifier.text;
    const module = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (!module) {
      found.push(`${specifier} (does not resolve)`);
      continue;
    }
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (symbol.flags & ts.SymbolFlags.Value) inspect(`${specifier} ${exported.name}`, checker.getTypeOfSymbol(symbol), 0, new Set());
      if (symbol.flags & ts.SymbolFlags.Type) inspect(`${specifier} ${exported.name}`, checker.getDeclaredTypeOfSymbol(symbol), 0, new Set());
    }
  }
  if (found.length > 0) fail(`public types that resolve to any:\n${found.join('\n')}`);
  console.log(`✓ no public type resolves to any (${specifiers.join(', ')})`);
}
