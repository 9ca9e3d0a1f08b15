import type { Ajv } from 'ajv';
import formats from 'ajv-formats';
import {
  OpenAPIBackend,
  OpenAPIRouter,
  type Operation,
  type OpenAPIValidator,
  type Request as OpenApiRequest,
} from 'openapi-backend';
import type { operations } from '../../generated/openapi.js';
import { contractDocument } from './contract-document.js';

export type OperationId = keyof operations;

/**
 * Who an operation is for (`x-audience`): a tenant's program on the public listener, or the platform on the
 * admin listener. An operation with no audience (health, readiness) is served on both.
 */
export type Audience = 'tenant' | 'admin';

export interface IntegerParam {
  in: 'query' | 'path';
  name: string;
}

/** One operation of openapi.yaml, with what the request pipeline needs of it worked out once. */
export interface ContractOperation {
  id: OperationId;
  /** lower case, as the contract writes it */
  method: string;
  /** the path template, `/api/open/runs/{run_id}` */
  template: string;
  /** the contract's `security` asks for a bearer token */
  authenticated: boolean;
  /** `x-audience`: undefined for the operations every listener serves */
  audience: Audience | undefined;
  /** the scope a token needs for it (`x-scope`), for authenticated operations */
  scope: string | undefined;
  /** `x-scope: any`: any valid token of a tenant, whatever its scopes */
  anyToken: boolean;
  /** the request body is JSON: the pipeline reads it before validation */
  jsonBody: boolean;
  queryNames: ReadonlySet<string>;
  /** query parameters whose schema gives a default (validation fills them in) */
  queryDefaults: ReadonlySet<string>;
  integerParams: readonly IntegerParam[];
  /** header parameter names, lower case -> as the contract spells them */
  headerNames: ReadonlyMap<string, string>;
  source: Operation;
}

export type RouteMatch = { found: true; operation: ContractOperation } | { found: false; allowed: string[] };

/** The contract does not change while the server runs: its operation list is built once, not per match. */
class FixedOperationsRouter extends OpenAPIRouter {
  private readonly fixed: Operation[] = super.getOperations();

  override getOperations(): Operation[] {
    return this.fixed;
  }
}

const escapeRegExp = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * openapi-backend's matching, with each path template's pattern compiled once: its matchOperation builds
 * a regular expression for every operation of the contract on every request. The order is its order: the
 * exact path first, then the templates whose literal part is longest (a stable sort, as lodash's orderBy).
 */
class RouteTable {
  private readonly exact = new Map<string, Operation[]>();
  private readonly templates: { pattern: RegExp; operation: Operation }[];

  constructor(private readonly router: FixedOperationsRouter) {
    const operations = router.getOperations();
    for (const operation of operations) {
      const same = this.exact.get(operation.path) ?? [];
      same.push(operation);
      this.exact.set(operation.path, same);
    }
    const literalLength = (operation: Operation) => operation.path.replace(/\{.*?\}/g, '').length;
    this.templates = operations
      .map((operation) => ({
        pattern: new RegExp(
          `^${operation.path
            .split(/\{[^}]+\}/)
            .map(escapeRegExp)
            .join('[^/]+')}$`,
        ),
        operation,
      }))
      .sort((a, b) => literalLength(b.operation) - literalLength(a.operation));
  }

  /** The contract's path of a request path, or undefined when it is outside the API's root. */
  private relative(path: string): string | undefined {
    const normalized = this.router.normalizeRequest({ method: 'get', path, headers: {} }).path;
    const root = this.router.apiRoot.replace(/\/$/, '');
    const underRoot = root === '' || normalized === root || normalized.startsWith(`${root}/`);
    return underRoot ? this.router.normalizePath(normalized) : undefined;
  }

  match(method: string, path: string): Operation | undefined {
    const relative = this.relative(path);
    if (relative === undefined) return undefined;
    const verb = method.trim().toLowerCase();
    const exact = this.exact.get(relative)?.find((operation) => operation.method === verb);
    if (exact) return exact;
    return this.templates.find(
      ({ pattern, operation }) => operation.method === verb && pattern.test(relative),
    )?.operation;
  }

  /** The methods some operation takes at this path. */
  methods(path: string): string[] {
    const relative = this.relative(path);
    if (relative === undefined) return [];
    const found = this.templates.filter(({ pattern }) => pattern.test(relative));
    return [...new Set(found.map(({ operation }) => operation.method.toUpperCase()))];
  }
}

const addFormats = formats.default;

function audienceOf(operation: Operation): Audience | undefined {
  const declared = (operation as { 'x-audience'?: string })['x-audience'];
  if (declared === 'admin') return 'admin';
  return (operation.security ?? []).length > 0 ? 'tenant' : undefined;
}

/** `x-scope: any`: the operation takes any valid token (it tells a tenant about the API, not its data). */
const ANY_TOKEN = 'any';

function scopeOf(operation: Operation): string | undefined {
  const declared = (operation as { 'x-scope'?: string })['x-scope'];
  return declared === ANY_TOKEN ? undefined : declared;
}

function describe(operation: Operation): ContractOperation {
  const parameters = (operation.parameters ?? []).flatMap((p) => ('in' in p ? [p] : []));
  const requestBody = operation.requestBody;
  return {
    id: operation.operationId as OperationId,
    method: operation.method,
    template: operation.path,
    authenticated: (operation.security ?? []).length > 0,
    audience: audienceOf(operation),
    scope: scopeOf(operation),
    anyToken: (operation as { 'x-scope'?: string })['x-scope'] === ANY_TOKEN,
    jsonBody: Boolean(requestBody && 'content' in requestBody && requestBody.content['application/json']),
    queryNames: new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name)),
    queryDefaults: new Set(
      parameters
        .filter(
          (p) => p.in === 'query' && p.schema && 'default' in p.schema && p.schema.default !== undefined,
        )
        .map((p) => p.name),
    ),
    integerParams: parameters.flatMap((p) =>
      (p.in === 'query' || p.in === 'path') && p.schema && 'type' in p.schema && p.schema.type === 'integer'
        ? [{ in: p.in, name: p.name }]
        : [],
    ),
    headerNames: new Map(
      parameters.filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p.name] as const),
    ),
    source: operation,
  };
}

let loaded: Promise<Contract> | undefined;

/**
 * openapi.yaml as the request pipeline uses it: openapi-backend matches a request to its operation and
 * validates it with ajv; the pipeline calls each where its step needs it.
 */
export class Contract {
  private warming = false;
  private readonly routes: RouteTable;

  private constructor(
    private readonly router: FixedOperationsRouter,
    private readonly validator: OpenAPIValidator,
    readonly operations: ReadonlyMap<string, ContractOperation>,
  ) {
    this.routes = new RouteTable(router);
  }

  /**
   * The contract of this process: read and compiled once however many servers the process runs (a test
   * file starts several, two behind HAProxy at a time), so its validators are compiled once too.
   */
  static load(): Promise<Contract> {
    loaded ??= Contract.read().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  }

  private static async read(): Promise<Contract> {
    const backend = new OpenAPIBackend({
      definition: contractDocument(),
      // quick: skip re-validating the contract (redocly lint and the tests do) and compile lazily: the
      // request validators are warmed up once the server listens (warmUp), response validators never
      // (tests use them)
      quick: true,
      strict: true,
      validate: true,
      coerceTypes: true,
      ajvOpts: { allErrors: true, useDefaults: true },
      customizeAjv: (ajv: Ajv) => {
        addFormats(ajv, ['date', 'date-time', 'uuid', 'int32', 'int64', 'binary']);
        return ajv;
      },
    });
    await backend.init();
    const router = new FixedOperationsRouter({ definition: backend.definition, apiRoot: backend.apiRoot });
    const operations = new Map(
      router.getOperations().map((operation) => [operation.operationId ?? '', describe(operation)] as const),
    );
    return new Contract(router, backend.validator, operations);
  }

  /**
   * Compiles the request validators one operation per turn of the event loop. Compiling them all takes
   * about half a second (ajv), which a process no longer waits for before it listens; a request that
   * comes first compiles its own operation's (about 15 ms), and no turn is held longer than one operation.
   */
  warmUp(): void {
    if (this.warming) return;
    this.warming = true;
    const pending = [...this.operations.keys()];
    const step = () => {
      const operationId = pending.shift();
      if (operationId === undefined) return;
      this.validator.getRequestValidatorsForOperation(operationId);
      // a process that has nothing else left to do does not stay up for this
      setImmediate(step).unref();
    };
    setImmediate(step).unref();
  }

  /**
   * The operation a method and path name for a listener's audience; when none, the methods the path takes
   * there (none: not found). Another audience's operations do not exist on this listener, not even as a 405.
   */
  route(method: string, path: string, audience: Audience): RouteMatch {
    const source = this.routes.match(method, path);
    const operation = source && this.operations.get(source.operationId ?? '');
    const served = (found: ContractOperation | undefined) =>
      found !== undefined && (found.audience === undefined || found.audience === audience);
    if (served(operation)) return { found: true, operation: operation! };
    if (operation) return { found: false, allowed: [] };
    const allowed = this.routes.methods(path).filter((verb) => served(this.operationAt(verb, path)));
    return { found: false, allowed };
  }

  private operationAt(method: string, path: string): ContractOperation | undefined {
    return this.operations.get(this.routes.match(method, path)?.operationId ?? '');
  }

  /** The operations a listener of this audience serves. */
  servedTo(audience: Audience): ContractOperation[] {
    return [...this.operations.values()].filter(
      (op) => op.audience === undefined || op.audience === audience,
    );
  }

  /** ajv's verdict on the request, and the request as validated (types coerced, defaults applied). */
  validate(operation: ContractOperation, request: OpenApiRequest) {
    const validation = this.validator.validateRequest(request, operation.source);
    if (validation.errors) return { errors: validation.errors } as const;
    const coerced = validation.coerced as OpenApiRequest & { params?: Record<string, unknown> };
    const parsed = this.router.parseRequest(coerced, operation.source);
    return {
      errors: null,
      /** path parameters as the path writes them */
      rawParams: parsed.params as Record<string, string>,
      params: coerced.params ?? parsed.params,
      query: (coerced.query ?? {}) as Record<string, unknown>,
      body: parsed.requestBody as unknown,
    } as const;
  }
}
