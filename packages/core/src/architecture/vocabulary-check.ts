import ts from 'typescript';

/** The fields whose string-literal words the glossary fixes. */
export const VOCABULARY_FIELDS = ['status', 'purpose', 'outcome'] as const;

/** A checked field, or the names of usage types (`type name`). */
type VocabularyField = (typeof VOCABULARY_FIELDS)[number] | 'type name';

/** The words the glossary allows, by field. */
export type Vocabulary = ReadonlyMap<VocabularyField, ReadonlySet<string>>;

/** A word a declaration uses that the glossary does not list for its field. */
export interface VocabularyProblem {
  readonly file: string;
  readonly field: VocabularyField;
  readonly word: string;
  /** The interface or type the field belongs to. */
  readonly owner: string;
}

const ROWS = /<!-- vocabulary -->([\s\S]*?)<!-- \/vocabulary -->/;
const CODE = /`([^`]+)`/g;

/**
 * The glossary's vocabulary table (between `<!-- vocabulary -->` markers): each row's field (its
 * second column) and the words of its last column, in backticks. Rows of one field add up.
 */
export function readVocabulary(glossary: string): Vocabulary {
  const table = ROWS.exec(glossary)?.[1];
  if (table === undefined) throw new Error('the glossary has no <!-- vocabulary --> table');
  const words = new Map<VocabularyField, Set<string>>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || cells[1] === 'Idea' || cells[1]?.startsWith('---')) continue;
    const field = cells[2]?.replaceAll('`', '') as VocabularyField;
    const listed = words.get(field) ?? new Set<string>();
    for (const match of (cells.at(-2) ?? '').matchAll(CODE)) listed.add(match[1] as string);
    words.set(field, listed);
  }
  return words;
}

/** Every declared interface and type alias of the files, by name (a name declared twice keeps both). */
function declarationsOf(files: readonly ts.SourceFile[]): Map<string, (ts.InterfaceDeclaration | ts.TypeAliasDeclaration)[]> {
  const byName = new Map<string, (ts.InterfaceDeclaration | ts.TypeAliasDeclaration)[]>();
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) byName.set(node.name.text, [...(byName.get(node.name.text) ?? []), node]);
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(file);
  return byName;
}

/** The string literals a type node stands for, following aliases and `T['field']` by name. */
function literalsOf(type: ts.TypeNode, declarations: ReturnType<typeof declarationsOf>, seen = new Set<ts.Node>()): string[] {
  if (seen.has(type)) return [];
  seen.add(type);
  if (ts.isLiteralTypeNode(type)) return ts.isStringLiteral(type.literal) ? [type.literal.text] : [];
  if (ts.isUnionTypeNode(type)) return type.types.flatMap((member) => literalsOf(member, declarations, seen));
  if (ts.isParenthesizedTypeNode(type)) return literalsOf(type.type, declarations, seen);
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && (type.typeName.text === 'Exclude' || type.typeName.text === 'Extract')) {
    const [from] = type.typeArguments ?? [];
    return from ? literalsOf(from, declarations, seen) : [];
  }
  if (ts.isTypeReferenceNode(type)) {
    const name = ts.isIdentifier(type.typeName) ? type.typeName.text : type.typeName.right.text;
    return (declarations.get(name) ?? []).flatMap((declaration) => (ts.isTypeAliasDeclaration(declaration) ? literalsOf(declaration.type, declarations, seen) : []));
  }
  if (ts.isIndexedAccessTypeNode(type) && ts.isLiteralTypeNode(type.indexType) && ts.isStringLiteral(type.indexType.literal) && ts.isTypeReferenceNode(type.objectType) && ts.isIdentifier(type.objectType.typeName)) {
    const field = type.indexType.literal.text;
    const members = (declarations.get(type.objectType.typeName.text) ?? []).flatMap((declaration) => (ts.isInterfaceDeclaration(declaration) ? [...declaration.members] : []));
    return members.flatMap((member) => (ts.isPropertySignature(member) && member.type && member.name.getText() === field ? literalsOf(member.type, declarations, seen) : []));
  }
  return [];
}

/** The name of the interface or type alias a node sits in. */
function ownerOf(node: ts.Node): string {
  for (let parent = node.parent; parent; parent = parent.parent) if (ts.isInterfaceDeclaration(parent) || ts.isTypeAliasDeclaration(parent)) return parent.name.text;
  return '(anonymous)';
}

/**
 * Checks declaration files against the glossary: every word of a `status`, `purpose` or
 * `outcome` field's string-literal union must be listed for that field, and every type named
 * `…Usage` that declares token counts must be a usage type the glossary names.
 */
export function checkVocabulary(files: ReadonlyMap<string, string>, vocabulary: Vocabulary): VocabularyProblem[] {
  const parsed = [...files].map(([name, text]) => ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true));
  const declarations = declarationsOf(parsed);
  const problems: VocabularyProblem[] = [];
  const fields: ReadonlySet<string> = new Set(VOCABULARY_FIELDS);
  for (const file of parsed) {
    const visit = (node: ts.Node): void => {
      if (ts.isPropertySignature(node) && node.type && fields.has(node.name.getText())) {
        const field = node.name.getText() as VocabularyField;
        for (const word of new Set(literalsOf(node.type, declarations))) if (!vocabulary.get(field)?.has(word)) problems.push({ file: file.fileName, field, word, owner: ownerOf(node) });
      }
      if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name.text.endsWith('Usage') && node.getText().includes('inputTokens') && !vocabulary.get('type name')?.has(node.name.text)) {
        problems.push({ file: file.fileName, field: 'type name', word: node.name.text, owner: node.name.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return problems;
}
