/**
 * Schema compatibility for the breaking-change gate: what a client built against the old schema relies on
 * that the new one takes away. The question differs by direction. A request schema is what the server
 * accepts, so the new one must accept every value the old one did (no type narrowed, no rule added or
 * tightened, no enum value dropped, no property made required). A response schema is what the server
 * sends, so every value it may now send must still read as the old one described it (no property removed or
 * made optional, no type widened or made nullable); new properties, new enum values and looser bounds in a
 * response are additive.
 *
 * Schemas are OpenAPI 3.0: `$ref` is followed (its siblings ignored, as 3.0 says), `allOf` is merged into
 * one shape, `anyOf`/`oneOf` are compared branch by branch, `nullable` is part of the type.
 */
import { type BreakKind, type Json, isObject, Resolver } from './document.js';

export type Direction = 'request' | 'response';

/** One schema with `allOf` merged and `$ref` followed: the facts a compatibility check reads. */
interface Shape {
  /** The component the schema came from (`#/components/schemas/Run`), to match `anyOf` branches. */
  readonly ref?: string;
  /** Undefined: any type. */
  types?: Set<string>;
  nullable: boolean;
  formats: Set<string>;
  enum?: unknown[];
  patterns: Set<string>;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum: boolean;
  exclusiveMaximum: boolean;
  multipleOf?: number;
  uniqueItems: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  /** Property schemas, unresolved: several `allOf` branches naming one property give an `allOf` of them. */
  properties: Map<string, Json>;
  required: Set<string>;
  /** `false`: no other property; a schema: what the others are; `true`: anything. */
  additionalProperties: boolean | Json;
  items?: Json;
  /** `anyOf` / `oneOf` branches, each already merged with the schema's other keywords. */
  alternatives?: Json[];
}

/** Keywords that say nothing of which values are valid. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'example',
  'examples',
  'default',
  'deprecated',
  'nullable',
]);

const NUMBER_FORMATS_WIDER: Record<string, string> = { int32: 'int64', float: 'double' };

function stricterMax(a: number | undefined, b: unknown): number | undefined {
  if (typeof b !== 'number') return a;
  return a === undefined ? b : Math.min(a, b);
}

function stricterMin(a: number | undefined, b: unknown): number | undefined {
  if (typeof b !== 'number') return a;
  return a === undefined ? b : Math.max(a, b);
}

export function shapeOf(resolver: Resolver, schema: unknown): Shape {
  const { node, ref } = resolver.deref(schema);
  const shape: Shape = {
    ...(ref === undefined ? {} : { ref }),
    nullable: false,
    formats: new Set(),
    patterns: new Set(),
    exclusiveMinimum: false,
    exclusiveMaximum: false,
    uniqueItems: false,
    readOnly: false,
    writeOnly: false,
    properties: new Map(),
    required: new Set(),
    additionalProperties: true,
  };
  if (!isObject(node)) return shape;
  const branches = Array.isArray(node.allOf) ? node.allOf.map((branch) => shapeOf(resolver, branch)) : [];
  const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : null;
  if (alternatives) {
    // `type: object, anyOf: [...]`: each branch is the branch and the rest together
    const rest = Object.fromEntries(
      Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key) && key !== 'anyOf' && key !== 'oneOf'),
    );
    shape.alternatives = alternatives.map((branch) =>
      Object.keys(rest).length === 0 ? (branch as Json) : { allOf: [rest, branch] },
    );
  }
  mergeOwn(shape, node);
  for (const branch of branches) mergeShape(shape, branch);
  // 3.0's `nullable` needs a type beside it; `allOf: [{$ref}], nullable: true` is read as meant (nullable)
  shape.nullable =
    node.nullable === true || (branches.length > 0 && branches.every((branch) => branch.nullable));
  return shape;
}

function mergeOwn(shape: Shape, node: Json): void {
  if (typeof node.type === 'string') shape.types = new Set([node.type]);
  if (typeof node.format === 'string') shape.formats.add(node.format);
  if (Array.isArray(node.enum)) shape.enum = [...node.enum];
  if (typeof node.pattern === 'string') shape.patterns.add(node.pattern);
  shape.minLength = stricterMin(shape.minLength, node.minLength);
  shape.maxLength = stricterMax(shape.maxLength, node.maxLength);
  shape.minItems = stricterMin(shape.minItems, node.minItems);
  shape.maxItems = stricterMax(shape.maxItems, node.maxItems);
  shape.minimum = stricterMin(shape.minimum, node.minimum);
  shape.maximum = stricterMax(shape.maximum, node.maximum);
  if (typeof node.multipleOf === 'number') shape.multipleOf = node.multipleOf;
  shape.exclusiveMinimum = node.exclusiveMinimum === true;
  shape.exclusiveMaximum = node.exclusiveMaximum === true;
  shape.uniqueItems = node.uniqueItems === true;
  shape.readOnly = node.readOnly === true;
  shape.writeOnly = node.writeOnly === true;
  if (isObject(node.properties))
    for (const [name, property] of Object.entries(node.properties))
      shape.properties.set(name, property as Json);
  if (Array.isArray(node.required))
    for (const name of node.required) if (typeof name === 'string') shape.required.add(name);
  if (node.additionalProperties === false || isObject(node.additionalProperties))
    shape.additionalProperties = node.additionalProperties;
  if (node.items !== undefined) shape.items = node.items as Json;
}

/** `allOf`: a value must satisfy every branch, so the merged shape takes the stricter of each rule. */
function mergeShape(into: Shape, branch: Shape): void {
  if (branch.types) {
    into.types = into.types
      ? new Set([...into.types].filter((type) => branch.types!.has(type)))
      : new Set(branch.types);
  }
  for (const format of branch.formats) into.formats.add(format);
  if (branch.enum)
    into.enum = into.enum ? into.enum.filter((v) => includesValue(branch.enum!, v)) : branch.enum;
  for (const pattern of branch.patterns) into.patterns.add(pattern);
  into.minLength = stricterMin(into.minLength, branch.minLength);
  into.maxLength = stricterMax(into.maxLength, branch.maxLength);
  into.minItems = stricterMin(into.minItems, branch.minItems);
  into.maxItems = stricterMax(into.maxItems, branch.maxItems);
  into.minimum = stricterMin(into.minimum, branch.minimum);
  into.maximum = stricterMax(into.maximum, branch.maximum);
  into.multipleOf ??= branch.multipleOf;
  into.exclusiveMinimum ||= branch.exclusiveMinimum;
  into.exclusiveMaximum ||= branch.exclusiveMaximum;
  into.uniqueItems ||= branch.uniqueItems;
  into.readOnly ||= branch.readOnly;
  into.writeOnly ||= branch.writeOnly;
  for (const [name, property] of branch.properties) {
    const already = into.properties.get(name);
    into.properties.set(name, already ? { allOf: [already, property] } : property);
  }
  for (const name of branch.required) into.required.add(name);
  // an envelope branch with `additionalProperties: false` would forbid its siblings' properties; 3.0 tools
  // read it per branch, and so does this: only the merged schema's own keyword counts
  if (branch.items !== undefined)
    into.items = into.items ? { allOf: [into.items, branch.items] } : branch.items;
  if (branch.alternatives && !into.alternatives) into.alternatives = branch.alternatives;
}

function includesValue(values: readonly unknown[], value: unknown): boolean {
  const key = JSON.stringify(value);
  return values.some((candidate) => JSON.stringify(candidate) === key);
}

/** Whether a value of `type` is one of `types` (undefined: any; an integer is a number). */
function admits(types: Set<string> | undefined, type: string): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'));
}

function describeType(shape: Shape): string {
  const types = shape.types ? [...shape.types].join('|') || 'nothing' : 'any';
  return shape.nullable ? `${types}|null` : types;
}

/** Where in a body a schema sits: `data[].data.id`. */
function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** Compares an old and a new schema at one place of the contract and reports what breaks. */
export class SchemaComparer {
  constructor(
    private readonly before: Resolver,
    private readonly after: Resolver,
    private readonly report: (kind: BreakKind, path: string, detail: string) => void,
  ) {}

  /** The (old, new) component pairs being compared on the current path: a recursive schema stops here. */
  private readonly open = new Set<string>();

  compare(oldSchema: unknown, newSchema: unknown, direction: Direction, path = ''): void {
    const before = shapeOf(this.before, oldSchema);
    const after = shapeOf(this.after, newSchema);
    const pair = `${before.ref ?? ''}|${after.ref ?? ''}|${direction}`;
    if ((before.ref || after.ref) && this.open.has(pair)) return;
    this.open.add(pair);
    try {
      if (before.alternatives || after.alternatives)
        this.compareAlternatives([before, oldSchema], [after, newSchema], direction, path);
      else this.compareShapes(before, after, direction, path);
    } finally {
      this.open.delete(pair);
    }
  }

  /** A count of the breaks a comparison would report, without reporting them. */
  private breaksBetween(oldSchema: unknown, newSchema: unknown, direction: Direction): number {
    let count = 0;
    const probe = new SchemaComparer(this.before, this.after, () => count++);
    probe.compare(oldSchema, newSchema, direction);
    return count;
  }

  /**
   * `anyOf`/`oneOf`: branches are matched by the component they name, else by the fewest breaks. In a
   * request every old branch must still be accepted; in a response a new branch is additive (as a new enum
   * value is: clients meet a new kind of event, not a changed one), and the branches both have are compared.
   */
  private compareAlternatives(
    [before, oldSchema]: [Shape, unknown],
    [after, newSchema]: [Shape, unknown],
    direction: Direction,
    path: string,
  ): void {
    // a single schema against branches is one branch
    const oldBranches = before.alternatives ?? [oldSchema as Json];
    const newBranches = after.alternatives ?? [newSchema as Json];
    if (direction === 'request' ? before.nullable && !after.nullable : after.nullable && !before.nullable)
      this.report('type changed', path, before.nullable ? 'no longer nullable' : 'now nullable');
    const refOf = (resolver: Resolver, branch: Json) => resolver.deref(branch).ref;
    const pairs: [Json, Json][] = [];
    const closest = (from: Json, candidates: Json[], asOld: boolean): Json | undefined => {
      let best: Json | undefined;
      let fewest = Infinity;
      for (const candidate of candidates) {
        const count = asOld
          ? this.breaksBetween(from, candidate, direction)
          : this.breaksBetween(candidate, from, direction);
        if (count < fewest) [best, fewest] = [candidate, count];
      }
      return best;
    };
    if (direction === 'request') {
      for (const oldBranch of oldBranches) {
        const ref = refOf(this.before, oldBranch);
        const named = ref && newBranches.find((branch) => refOf(this.after, branch) === ref);
        const match = named || closest(oldBranch, newBranches, true);
        if (match) pairs.push([oldBranch, match]);
      }
    } else if (!before.alternatives || !after.alternatives) {
      // one side is a single schema: each new branch must read as one of the old ones
      for (const newBranch of newBranches) {
        const match = closest(newBranch, oldBranches, false);
        if (match) pairs.push([match, newBranch]);
      }
    } else {
      // inline branches have no name: as many on both sides are the same ones, in order; more are new
      const oldInline = oldBranches.filter((branch) => !refOf(this.before, branch));
      const newInline = newBranches.filter((branch) => !refOf(this.after, branch));
      for (const newBranch of newBranches) {
        const ref = refOf(this.after, newBranch);
        const named = ref
          ? oldBranches.find((branch) => refOf(this.before, branch) === ref)
          : oldInline.length === newInline.length
            ? oldInline[newInline.indexOf(newBranch)]
            : undefined;
        if (named) pairs.push([named, newBranch]);
      }
    }
    for (const [oldBranch, newBranch] of pairs) this.compare(oldBranch, newBranch, direction, path);
  }

  private compareShapes(before: Shape, after: Shape, direction: Direction, path: string): void {
    if (direction === 'request') this.compareRequest(before, after, path);
    else this.compareResponse(before, after, path);
    this.compareProperties(before, after, direction, path);
    if (before.items !== undefined || after.items !== undefined)
      this.compare(before.items ?? {}, after.items ?? {}, direction, `${path}[]`);
    if (isObject(before.additionalProperties) && isObject(after.additionalProperties))
      this.compare(before.additionalProperties, after.additionalProperties, direction, child(path, '*'));
  }

  /** What the server accepts: every value the old schema let through must still pass. */
  private compareRequest(before: Shape, after: Shape, path: string): void {
    const lost = before.types
      ? [...before.types].filter((type) => !admits(after.types, type))
      : after.types
        ? ['any']
        : [];
    if (lost.length > 0 || (before.nullable && !after.nullable))
      this.report('type changed', path, `${describeType(before)} -> ${describeType(after)}`);

    if (after.enum) {
      if (!before.enum)
        this.report('validation tightened', path, `enum added: ${JSON.stringify(after.enum)}`);
      else
        for (const value of before.enum)
          if (!includesValue(after.enum, value))
            this.report('enum value removed', path, `${JSON.stringify(value)} no longer accepted`);
    }

    const tightened = (detail: string) => this.report('validation tightened', path, detail);
    for (const pattern of after.patterns)
      if (!before.patterns.has(pattern))
        tightened(before.patterns.size === 0 ? `pattern added: ${pattern}` : `pattern changed: ${pattern}`);
    for (const format of after.formats) {
      const widened = [...before.formats].some((old) => NUMBER_FORMATS_WIDER[old] === format);
      if (!before.formats.has(format) && !widened)
        tightened(before.formats.size === 0 ? `format added: ${format}` : `format changed: ${format}`);
    }
    const lowered = (rule: string, old: number | undefined, now: number | undefined) => {
      if (now !== undefined && (old === undefined || now < old))
        tightened(`${rule} ${old ?? 'none'} -> ${now}`);
    };
    const raised = (rule: string, old: number | undefined, now: number | undefined) => {
      if (now !== undefined && (old === undefined || now > old))
        tightened(`${rule} ${old ?? 'none'} -> ${now}`);
    };
    lowered('maxLength', before.maxLength, after.maxLength);
    raised('minLength', before.minLength, after.minLength);
    lowered('maxItems', before.maxItems, after.maxItems);
    raised('minItems', before.minItems, after.minItems);
    lowered('maximum', before.maximum, after.maximum);
    raised('minimum', before.minimum, after.minimum);
    if (after.exclusiveMaximum && !before.exclusiveMaximum && after.maximum === before.maximum)
      tightened('exclusiveMaximum added');
    if (after.exclusiveMinimum && !before.exclusiveMinimum && after.minimum === before.minimum)
      tightened('exclusiveMinimum added');
    if (after.uniqueItems && !before.uniqueItems) tightened('uniqueItems added');
    if (
      after.multipleOf !== undefined &&
      (before.multipleOf === undefined || before.multipleOf % after.multipleOf !== 0)
    )
      tightened(`multipleOf ${before.multipleOf ?? 'none'} -> ${after.multipleOf}`);
    if (after.additionalProperties === false && before.additionalProperties !== false)
      tightened('additionalProperties: false added');
  }

  /** What the server sends: every value it may now send must still read as the old schema said. */
  private compareResponse(before: Shape, after: Shape, path: string): void {
    const gained = after.types
      ? [...after.types].filter((type) => !admits(before.types, type))
      : before.types
        ? ['any']
        : [];
    if (gained.length > 0 || (after.nullable && !before.nullable))
      this.report('type changed', path, `${describeType(before)} -> ${describeType(after)}`);
    // a value that parsed as a date-time may not parse as what the new format says it is
    const changedFormat = [...after.formats].find(
      (format) => before.formats.size > 0 && !before.formats.has(format),
    );
    if (changedFormat !== undefined)
      this.report('type changed', path, `format ${[...before.formats].join(', ')} -> ${changedFormat}`);
  }

  private compareProperties(before: Shape, after: Shape, direction: Direction, path: string): void {
    if (direction === 'request') {
      for (const name of after.required) {
        if (before.required.has(name) || shapeOf(this.after, after.properties.get(name)).readOnly) continue;
        if (before.properties.has(name))
          this.report('request property made required', child(path, name), 'was optional');
        else this.report('required request property added', child(path, name), 'new and required');
      }
      for (const [name, property] of before.properties) {
        if (shapeOf(this.before, property).readOnly) continue;
        const now = after.properties.get(name);
        if (now !== undefined) this.compare(property, now, direction, child(path, name));
        else if (after.additionalProperties === false)
          this.report('request property removed', child(path, name), 'now rejected as unknown');
      }
      return;
    }
    for (const [name, property] of before.properties) {
      if (shapeOf(this.before, property).writeOnly) continue;
      const now = after.properties.get(name);
      if (now === undefined) {
        this.report('response property removed', child(path, name), 'removed or renamed');
        continue;
      }
      if (before.required.has(name) && !after.required.has(name))
        this.report('response property made optional', child(path, name), 'was always present');
      this.compare(property, now, direction, child(path, name));
    }
  }
}
