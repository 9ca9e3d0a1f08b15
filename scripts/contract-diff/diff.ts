/**
 * The breaking changes between two OpenAPI 3.0 contracts: what a client written against `before` relies on
 * that `after` takes away. Operations are matched by method and path (path parameters by position, so a
 * renamed `{id}` is the same operation); within one, its parameters, request body, responses (status codes,
 * media types, headers, schemas) and its security (schemes and the `x-scope` extension) are compared.
 * Additive changes (a new operation, optional parameter or property, response property, enum value in a
 * response, a looser rule) are not reported.
 */
import { type Break, type BreakKind, type Json, isObject, Resolver } from './document.js';
import { type Direction, SchemaComparer } from './schema.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  readonly label: string;
  readonly node: Json;
  /** The path item's parameters and the operation's, the operation's winning (as OpenAPI says). */
  readonly parameters: Map<string, Json>;
}

/** `/runs/{run_id}/files/{name}` and `/runs/{id}/files/{file}` are one path. */
function pathShape(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

function operationsOf(document: Json, resolver: Resolver): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolver.deref(rawItem).node;
    if (!isObject(item)) continue;
    const pathParameters = [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!);
    const keyOf = (parameter: Json): string => {
      const position = pathParameters.indexOf(String(parameter.name));
      if (parameter.in === 'path' && position >= 0) return `path #${position}`;
      const name = String(parameter.name);
      return `${String(parameter.in)} ${parameter.in === 'header' ? name.toLowerCase() : name}`;
    };
    for (const method of METHODS) {
      const node = item[method];
      if (!isObject(node)) continue;
      const parameters = new Map<string, Json>();
      for (const list of [item.parameters, node.parameters])
        for (const raw of Array.isArray(list) ? list : []) {
          const parameter = resolver.deref(raw).node;
          if (isObject(parameter)) parameters.set(keyOf(parameter), parameter);
        }
      operations.set(`${method} ${pathShape(path)}`, {
        label: `${method.toUpperCase()} ${path}`,
        node,
        parameters,
      });
    }
  }
  return operations;
}

/** A parameter's, a header's or a media type's schema (`content` is the other way to give one). */
function schemaOf(holder: Json): unknown {
  if (holder.schema !== undefined) return holder.schema;
  const content = isObject(holder.content) ? Object.values(holder.content) : [];
  const first = content.find(isObject);
  return first?.schema ?? {};
}

function mediaTypes(holder: Json): Map<string, Json> {
  const content = isObject(holder.content) ? holder.content : {};
  const types = new Map<string, Json>();
  for (const [type, media] of Object.entries(content))
    if (isObject(media)) types.set(type.toLowerCase(), media);
  return types;
}

function isSuccess(status: string): boolean {
  return /^2(\d\d|XX)$/i.test(status);
}

/** A security requirement: each scheme it needs (with that scheme's definition) and its scopes. */
type Requirement = Map<string, { definition: string; scopes: Set<string> }>;

function requirementsOf(document: Json, operation: Json): Requirement[] {
  const listed = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.security)
      ? document.security
      : [];
  // no requirement at all (`security: []`) lets anyone in: one empty alternative
  if (listed.length === 0) return [new Map()];
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  return listed.filter(isObject).map((requirement) => {
    const needs: Requirement = new Map();
    for (const [scheme, scopes] of Object.entries(requirement)) {
      const { description: _description, ...definition } = isObject(schemes[scheme]) ? schemes[scheme] : {};
      needs.set(scheme, {
        definition: JSON.stringify(definition),
        scopes: new Set(Array.isArray(scopes) ? scopes.map(String) : []),
      });
    }
    return needs;
  });
}

/** Whether a caller that met `old` meets `now`: no scheme, scheme definition or scope more. */
function satisfies(old: Requirement, now: Requirement): boolean {
  for (const [scheme, need] of now) {
    const had = old.get(scheme);
    if (!had || had.definition !== need.definition) return false;
    for (const scope of need.scopes) if (!had.scopes.has(scope)) return false;
  }
  return true;
}

function describeRequirements(requirements: Requirement[]): string {
  return requirements
    .map((requirement) =>
      requirement.size === 0
        ? 'none'
        : [...requirement].map(([scheme, { scopes }]) => [scheme, ...scopes].join(':')).join('+'),
    )
    .join(' or ');
}

function scopesOf(operation: Json): Set<string> {
  const scope = operation['x-scope'];
  return new Set(Array.isArray(scope) ? scope.map(String) : typeof scope === 'string' ? [scope] : []);
}

export function findBreaks(before: Json, after: Json): Break[] {
  const found = new Map<string, Break>();
  const report = (kind: BreakKind, location: string, detail: string) => {
    const key = `${kind}\u0000${location}`;
    if (!found.has(key)) found.set(key, { kind, location, detail });
  };
  const oldResolver = new Resolver(before);
  const newResolver = new Resolver(after);
  const oldOperations = operationsOf(before, oldResolver);
  const newOperations = operationsOf(after, newResolver);

  for (const [key, old] of oldOperations) {
    const now = newOperations.get(key);
    if (!now) {
      report('operation removed', old.label, String(old.node.operationId ?? ''));
      continue;
    }
    const at = (where: string) => (path: string) => [old.label, where, path].filter(Boolean).join(' ');
    const schemas = (where: string) => {
      const location = at(where);
      return new SchemaComparer(oldResolver, newResolver, (kind, path, detail) =>
        report(kind, location(path), detail),
      );
    };
    const compareSchema = (where: string, oldSchema: unknown, newSchema: unknown, direction: Direction) =>
      schemas(where).compare(oldSchema, newSchema, direction);

    // parameters
    for (const [parameterKey, parameter] of now.parameters) {
      const had = old.parameters.get(parameterKey);
      const where = `${String(parameter.in)} ${String(parameter.name)}`;
      if (parameter.required === true && !had) report('required parameter added', at(where)(''), 'new');
      else if (parameter.required === true && had && had.required !== true)
        report('parameter made required', at(where)(''), 'was optional');
    }
    for (const [parameterKey, parameter] of old.parameters) {
      const where = `${String(parameter.in)} ${String(parameter.name)}`;
      const still = now.parameters.get(parameterKey);
      if (!still) report('parameter removed', at(where)(''), 'removed or renamed');
      else compareSchema(where, schemaOf(parameter), schemaOf(still), 'request');
    }

    // request body
    const oldBody = oldResolver.deref(old.node.requestBody).node;
    const newBody = newResolver.deref(now.node.requestBody).node;
    if (isObject(newBody)) {
      if (!isObject(oldBody) && newBody.required === true)
        report('required request body added', at('request')(''), 'new');
      if (isObject(oldBody) && oldBody.required !== true && newBody.required === true)
        report('request body made required', at('request')(''), 'was optional');
    }
    if (isObject(oldBody) && isObject(newBody)) {
      const newTypes = mediaTypes(newBody);
      for (const [type, media] of mediaTypes(oldBody)) {
        const where = type === 'application/json' ? 'request' : `request ${type}`;
        const still = newTypes.get(type);
        if (!still) report('request media type removed', at('request')(type), 'no longer accepted');
        else compareSchema(where, media.schema ?? {}, still.schema ?? {}, 'request');
      }
    }

    // responses
    const oldResponses = isObject(old.node.responses) ? old.node.responses : {};
    const newResponses = isObject(now.node.responses) ? now.node.responses : {};
    for (const [status, rawOld] of Object.entries(oldResponses)) {
      const oldResponse = oldResolver.deref(rawOld).node;
      const newResponse = newResolver.deref(newResponses[status]).node;
      if (!isObject(oldResponse)) continue;
      if (!isObject(newResponse)) {
        if (isSuccess(status)) report('success status removed', at(status)(''), 'no longer answered');
        continue;
      }
      const newHeaders = new Map(
        Object.entries(isObject(newResponse.headers) ? newResponse.headers : {}).map(([name, header]) => [
          name.toLowerCase(),
          header,
        ]),
      );
      for (const [name, rawHeader] of Object.entries(
        isObject(oldResponse.headers) ? oldResponse.headers : {},
      )) {
        const still = newHeaders.get(name.toLowerCase());
        const where = `${status} header ${name}`;
        if (still === undefined) {
          report('response header removed', at(where)(''), 'no longer sent');
          continue;
        }
        const oldHeader = oldResolver.deref(rawHeader).node;
        const newHeader = newResolver.deref(still).node;
        if (isObject(oldHeader) && isObject(newHeader))
          compareSchema(where, schemaOf(oldHeader), schemaOf(newHeader), 'response');
      }
      const newTypes = mediaTypes(newResponse);
      for (const [type, media] of mediaTypes(oldResponse)) {
        const where = type === 'application/json' ? status : `${status} ${type}`;
        const still = newTypes.get(type);
        if (!still) {
          if (isSuccess(status))
            report('success response media type removed', at(status)(type), 'no longer answered');
          continue;
        }
        compareSchema(where, media.schema ?? {}, still.schema ?? {}, 'response');
      }
    }

    // authentication and scopes
    const oldRequirements = requirementsOf(before, old.node);
    const newRequirements = requirementsOf(after, now.node);
    if (!oldRequirements.every((requirement) => newRequirements.some((need) => satisfies(requirement, need))))
      report(
        'security tightened',
        old.label,
        `${describeRequirements(oldRequirements)} -> ${describeRequirements(newRequirements)}`,
      );
    const oldScopes = scopesOf(old.node);
    const newScopes = [...scopesOf(now.node)];
    // an admin operation that named no scope gains its first: every admin token from before admin scopes
    // holds them all (src/platform/admin-tokens.ts), so no token it took is refused
    const firstAdminScope = old.node['x-audience'] === 'admin' && oldScopes.size === 0;
    if (!firstAdminScope && newScopes.some((scope) => !oldScopes.has(scope)))
      report(
        'scope tightened',
        old.label,
        `x-scope ${[...oldScopes].join(', ') || 'none'} -> ${newScopes.join(', ')}`,
      );
  }
  return [...found.values()];
}
