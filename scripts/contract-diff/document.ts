/** The pieces of an OpenAPI 3.0 document the breaking-change gate reads, and what it reports. */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The kinds of break the gate reports: GitHub's published list of breaking changes
 * (docs.github.com, "Breaking changes" of the REST API), as an OpenAPI 3.0 contract can show them.
 */
export const BREAK_KINDS = [
  'operation removed',
  'parameter removed',
  'required parameter added',
  'parameter made required',
  'required request body added',
  'request body made required',
  'request media type removed',
  'required request property added',
  'request property made required',
  'request property removed',
  'type changed',
  'enum value removed',
  'validation tightened',
  'response property removed',
  'response property made optional',
  'success status removed',
  'success response media type removed',
  'response header removed',
  'security tightened',
  'scope tightened',
] as const;

export type BreakKind = (typeof BREAK_KINDS)[number];

export interface Break {
  readonly kind: BreakKind;
  /** Where, as a reader finds it: `GET /api/open/events 200 data[].data.id`. */
  readonly location: string;
  /** What changed there: `maxLength 2048 -> 100`. */
  readonly detail: string;
}

/** Follows local `$ref`s (`#/components/...`) in one document. */
export class Resolver {
  constructor(private readonly document: Json) {}

  /** The node a `$ref` chain ends at, and the last reference followed (undefined when none). */
  deref(node: unknown): { node: unknown; ref?: string } {
    let ref: string | undefined;
    const seen = new Set<string>();
    while (isObject(node) && typeof node.$ref === 'string') {
      ref = node.$ref;
      if (seen.has(ref)) throw new Error(`the $ref ${ref} refers to itself`);
      seen.add(ref);
      node = this.pointer(ref);
    }
    return ref === undefined ? { node } : { node, ref };
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are read, not ${ref}`);
    let node: unknown = this.document;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      if (!isObject(node) || !(key in node)) throw new Error(`the $ref ${ref} points at nothing`);
      node = node[key];
    }
    return node;
  }
}
