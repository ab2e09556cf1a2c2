import type { Dialect } from './dialect';
import { childrenOf, type SchemaNode } from './schema-walk';

/** The base URI of a schema without `$id`: references resolve against it, nothing is fetched. */
export const ROOT_URI = 'http://127.0.0.1/keel/schema.json';

/** A schema node found by a reference, with the base URI its own references resolve against. */
export interface Located {
  readonly node: SchemaNode;
  readonly base: string;
}

function url(reference: string, base: string): URL | undefined {
  try {
    return new URL(reference, base);
  } catch {
    return undefined;
  }
}

const decodeSegment = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The identifiers of one schema document (RFC 3986 base URIs from `$id`; draft-07 `#name` ids;
 * 2020-12 `$anchor` and `$dynamicAnchor`), so a `$ref` resolves to a node inside the document or
 * to nothing: no other document is ever fetched. A draft-07 `$id` beside `$ref` is ignored, as
 * that draft says.
 */
export class SchemaIndex {
  private readonly resources = new Map<string, SchemaNode>();
  private readonly anchors = new Map<string, SchemaNode>();
  private readonly dynamic = new Map<string, SchemaNode>();
  private readonly bases = new Map<object, string>();

  constructor(
    readonly root: SchemaNode,
    readonly dialect: Dialect,
  ) {
    this.resources.set(ROOT_URI, root);
    this.visit(root, ROOT_URI);
  }

  private visit(node: SchemaNode, base: string): void {
    if (typeof node === 'boolean') return;
    let here = base;
    const id = node.$id;
    if (typeof id === 'string' && !(this.dialect === 'draft-07' && Object.hasOwn(node, '$ref'))) {
      const resolved = url(id, base);
      if (resolved && this.dialect === 'draft-07' && id.startsWith('#')) this.anchors.set(`${base}${resolved.hash}`, node);
      else if (resolved) {
        const hash = resolved.hash;
        resolved.hash = '';
        here = resolved.href;
        this.resources.set(here, node);
        if (hash.length > 1) this.anchors.set(`${here}${hash}`, node);
      }
    }
    if (this.dialect === '2020-12') {
      if (typeof node.$anchor === 'string') this.anchors.set(`${here}#${node.$anchor}`, node);
      if (typeof node.$dynamicAnchor === 'string') {
        this.anchors.set(`${here}#${node.$dynamicAnchor}`, node);
        this.dynamic.set(`${here}#${node.$dynamicAnchor}`, node);
      }
    }
    this.bases.set(node, here);
    for (const child of childrenOf(node, this.dialect)) this.visit(child.node, here);
  }

  /** Calls `visit` with every schema node of the document. */
  forEachNode(visit: (node: SchemaNode) => void): void {
    for (const node of this.bases.keys()) visit(node as SchemaNode);
  }

  /** The base URI a node's references resolve against. */
  baseOf(node: SchemaNode): string {
    return typeof node === 'object' ? (this.bases.get(node) ?? ROOT_URI) : ROOT_URI;
  }

  /** The node a reference names from `base`, or undefined when this document holds none. */
  resolve(reference: string, base: string): Located | undefined {
    const target = url(reference, base);
    if (!target) return undefined;
    const fragment = target.hash.slice(1);
    target.hash = '';
    const resource = this.resources.get(target.href);
    if (resource === undefined) return undefined;
    if (fragment === '') return { node: resource, base: target.href };
    if (!fragment.startsWith('/')) {
      const anchored = this.anchors.get(`${target.href}#${fragment}`);
      return anchored === undefined ? undefined : { node: anchored, base: this.baseOf(anchored) };
    }
    let node: unknown = resource;
    for (const raw of fragment.slice(1).split('/')) {
      let segment: string;
      try {
        segment = decodeSegment(decodeURIComponent(raw));
      } catch {
        return undefined;
      }
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    }
    // Only a place that holds a subschema: never a `properties` map, an `enum` value, an unknown keyword's value.
    if (typeof node === 'boolean') return { node, base: target.href };
    if (typeof node !== 'object' || node === null || !this.bases.has(node)) return undefined;
    return { node: node as SchemaNode, base: this.baseOf(node as SchemaNode) };
  }

  /** The node with `$dynamicAnchor` `name` in the resource `base`, if that resource declares one. */
  dynamicAnchor(base: string, name: string): SchemaNode | undefined {
    return this.dynamic.get(`${base}#${name}`);
  }
}
