import type { Ajv } from 'ajv';
import formats from 'ajv-formats';
import type { Context as KoaContext } from 'koa';
import {
  OpenAPIBackend,
  type Context as OpenApiContext,
  type Request as OpenApiRequest,
} from 'openapi-backend';
import type { operations } from '../../generated/openapi.js';
import { ERRORS, type ValidationIssue } from '../errors.js';
import { CONTRACT_PATH } from '../paths.js';
import type { Services } from '../services.js';
import type { Principal } from '../store/types.js';
import type { RateLimiter } from '../rate-limit/index.js';
import { FairTurns } from './fair-turns.js';
import { idempotent } from './idempotency.js';
import { limitTenant } from './rate-limit.js';
import { readJsonBody } from './request-body.js';
import { toValidationIssues } from './validation-errors.js';

export type OperationId = keyof operations;

/** What a handler gets: the validated request, the Koa context to answer on, and the domain services. */
export interface Scope {
  c: OpenApiContext;
  ctx: KoaContext;
  services: Services;
}

export interface AuthedScope extends Scope {
  principal: Principal;
}

export type PublicHandler = (scope: Scope) => Promise<void>;
export type AuthedHandler = (scope: AuthedScope) => Promise<void>;

export interface HandlerSet {
  public: Partial<Record<OperationId, PublicHandler>>;
  authed: Partial<Record<OperationId, AuthedHandler>>;
}

const addFormats = formats.default;

function hasJsonBody(c: OpenApiContext): boolean {
  const requestBody = c.operation?.requestBody;
  return Boolean(requestBody && 'content' in requestBody && requestBody.content['application/json']);
}

const DECIMAL_INTEGER = /^\s*[+-]?\d+\s*$/;
/** What an integer parameter that is not written in decimal becomes: a value no coercion accepts. */
const NOT_AN_INTEGER = 'not-a-decimal-integer';

/**
 * ajv coerces with Number(), which also reads `1E2`, `0x10`, `0b1` and `0o7`; FastAPI (pydantic) refuses
 * them with `int_parsing`, and so do we: such a value is swapped for one that fails validation the same
 * way `abc` does. A duplicated key (an array) is judged by its last value, which is the one used.
 */
function refuseNonDecimalIntegers(
  params: { in: 'query' | 'path'; name: string }[],
  query: Record<string, string | string[]>,
  path: Record<string, string | string[]>,
): boolean {
  let pathChanged = false;
  for (const param of params) {
    const source = param.in === 'query' ? query : path;
    const raw = source[param.name];
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value === 'string' && !DECIMAL_INTEGER.test(value)) {
      source[param.name] = NOT_AN_INTEGER;
      if (param.in === 'path') pathChanged = true;
    }
  }
  return pathChanged;
}

/** Header names as the contract spells them (Node gives them lower-cased), as FastAPI names them in `loc`. */
function withHeaderNames(c: OpenApiContext, issues: ValidationIssue[]): ValidationIssue[] {
  const declared = new Map(
    (c.operation?.parameters ?? []).flatMap((p) =>
      'in' in p && p.in === 'header' ? [[p.name.toLowerCase(), p.name] as const] : [],
    ),
  );
  return issues.map((issue) =>
    issue.loc[0] === 'header' && issue.loc[1] !== undefined && declared.has(issue.loc[1])
      ? { ...issue, loc: ['header', declared.get(issue.loc[1])!, ...issue.loc.slice(2)] }
      : issue,
  );
}

/**
 * openapi-backend routes each operationId to its handler; for every request the order is
 * route -> authenticate -> read body -> validate -> handler. Validators are compiled once in init().
 */
export async function createApi(
  services: Services,
  handlers: HandlerSet,
  limiter: RateLimiter | undefined,
): Promise<OpenAPIBackend> {
  /** operationId -> its declared query parameter names, filled once after init. */
  const queryNames = new Map<string, Set<string>>();
  /** operationId -> its integer parameters (query and path), filled once after init. */
  const integerParams = new Map<string, { in: 'query' | 'path'; name: string }[]>();
  const turns = new FairTurns();
  const api = new OpenAPIBackend({
    definition: CONTRACT_PATH,
    // quick: skip re-validating the contract (redocly lint and the tests do) and compile lazily; the
    // request validators are then compiled eagerly below, response validators never (tests use them)
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

  api.register({
    notFound: async () => {
      throw ERRORS.routeNotFound();
    },
    methodNotAllowed: async (c: OpenApiContext) => {
      const path = c.request.path;
      const allowed = api.router
        .getOperations()
        .filter((op) => api.router.matchOperation({ method: op.method, path, headers: {} }) !== undefined)
        .map((op) => op.method.toUpperCase());
      throw ERRORS.methodNotAllowed([...new Set(allowed)]);
    },
    postRoutingHandler: async (c: OpenApiContext, ctx: KoaContext) => {
      if (!c.operation) return;
      // the access log names the operation, not the path with its ids
      ctx.state.route = c.operation.operationId;
      // Unknown query parameters are ignored, as FastAPI does; the generated schemas would refuse them.
      const declared = queryNames.get(c.operation.operationId ?? '') ?? new Set<string>();
      const req = ctx.state.apiRequest as OpenApiRequest;
      const query = req.query as Record<string, unknown>;
      req.query = Object.fromEntries(Object.entries(query).filter(([name]) => declared.has(name))) as Record<
        string,
        string
      >;
      const params = { ...(c.request.params as Record<string, string>) };
      const integers = integerParams.get(c.operation.operationId ?? '') ?? [];
      if (refuseNonDecimalIntegers(integers, req.query, params)) {
        // the validator parses the path again from the request: rebuild it from the operation's template
        req.path = c.operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(params[name] ?? ''),
        );
      }
    },
    postSecurityHandler: async (c: OpenApiContext, ctx: KoaContext) => {
      if (!c.security?.authorized && (c.operation?.security?.length ?? 0) > 0) return;
      const principal = ctx.state.principal as Principal | undefined;
      if (principal) {
        await limitTenant(ctx, limiter, principal.tenantId);
        await turns.take(principal.tenantId);
      }
      if (hasJsonBody(c)) {
        const req = ctx.state.apiRequest as OpenApiRequest;
        const body = await readJsonBody(ctx);
        req.body = body;
        // an absent body is validated as a missing `requestBody`, whatever Content-Type was sent
        if (body === undefined) req.headers = { ...req.headers, 'content-type': 'application/json' };
      }
    },
    unauthorizedHandler: async (_c: OpenApiContext, ctx: KoaContext) => {
      // a lookup that failed is the server's fault, not the caller's: it renders as a 500
      if (ctx.state.authError) throw ctx.state.authError;
      throw ctx.state.authFailure === 'invalid' ? ERRORS.invalidToken() : ERRORS.notAuthenticated();
    },
    validationFail: async (c: OpenApiContext) => {
      throw ERRORS.validation(withHeaderNames(c, toValidationIssues(c.validation.errors ?? [])));
    },
    notImplemented: async () => {
      throw ERRORS.notImplemented();
    },
  });

  api.registerSecurityHandler('bearerAuth', async (_c: OpenApiContext, ctx: KoaContext) => {
    const header = ctx.get('authorization');
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match?.[1]) {
      ctx.state.authFailure = 'missing';
      return false;
    }
    let result: Awaited<ReturnType<typeof services.tenants.authenticate>>;
    try {
      result = await services.tenants.authenticate(match[1]);
    } catch (error) {
      ctx.state.authError = error;
      return false;
    }
    if (result === 'invalid') {
      ctx.state.authFailure = 'invalid';
      return false;
    }
    ctx.state.principal = result;
    return true;
  });

  for (const [operationId, handler] of Object.entries(handlers.public)) {
    api.register(operationId, (c: OpenApiContext, ctx: KoaContext) => handler({ c, ctx, services }));
  }
  for (const [operationId, handler] of Object.entries(handlers.authed)) {
    // every POST takes an Idempotency-Key
    const withKey = idempotent(operationId as OperationId, handler);
    api.register(operationId, (c: OpenApiContext, ctx: KoaContext) => {
      const scope = { c, ctx, services, principal: ctx.state.principal as Principal };
      return c.operation.method === 'post' ? withKey(scope) : handler(scope);
    });
  }

  await api.init();
  api.validator.preCompileRequestValidators();
  // The router rebuilds its operation list on every match; the contract does not change while we run.
  const operations = api.router.getOperations();
  api.router.getOperations = () => operations;
  for (const op of operations) {
    integerParams.set(
      op.operationId ?? '',
      (op.parameters ?? []).flatMap((p) =>
        'in' in p &&
        (p.in === 'query' || p.in === 'path') &&
        p.schema &&
        'type' in p.schema &&
        p.schema.type === 'integer'
          ? [{ in: p.in, name: p.name }]
          : [],
      ),
    );
    queryNames.set(
      op.operationId ?? '',
      new Set((op.parameters ?? []).flatMap((p) => ('in' in p && p.in === 'query' ? [p.name] : []))),
    );
  }
  return api;
}
