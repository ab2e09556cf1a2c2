type Json = Record<string, unknown>;

/**
 * What Anthropic's constrained decoder would refuse in a schema sent on the wire: every open
 * object and every keyword outside the ones it takes, each with its path.
 */
export function anthropicSchemaDefects(schema: unknown): string[] {
  const defects: string[] = [];
  const allowed = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'enum', 'const', 'anyOf', 'allOf', '$ref', '$defs', 'description', 'title', 'format', 'pattern']);
  const visit = (node: unknown, path: string): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const record = node as Json;
    if (record['type'] === 'object' && record['additionalProperties'] !== false) defects.push(`open object at ${path}`);
    for (const key of Object.keys(record)) if (!allowed.has(key)) defects.push(`${key} at ${path}`);
    for (const key of ['properties', '$defs'] as const) {
      const children = record[key];
      if (typeof children === 'object' && children !== null) for (const [name, child] of Object.entries(children)) visit(child, `${path}/${key}/${name}`);
    }
    visit(record['items'], `${path}/items`);
    if (Array.isArray(record['anyOf'])) record['anyOf'].forEach((branch, index) => visit(branch, `${path}/anyOf/${index}`));
  };
  visit(schema, '');
  return defects;
}
