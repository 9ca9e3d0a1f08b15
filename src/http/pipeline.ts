import type { Request as OpenApiRequest } from 'openapi-backend';
import { ERRORS } from '../kernel/errors.js';
import { isAdminScope } from '../platform/admin-scopes.js';
import { grants, isScope } from '../tenants/scopes.js';
import { EXTERNAL_ID, TENANT_ID } from '../tenants/service.js';
import { authorizationFault, bearerToken, misplacedToken } from './bearer.js';
import type { Services } from '../composition/services.js';
import { normalize } from './normalize.js';
import type { Audience, Contract } from './operations.js';
import { readJsonBody } from './request-body.js';
import type { Handlers, RegisteredHandler, ValidatedScope } from './handler.js';

export type { Handlers } from './handler.js';
import { sendAnswer } from './render.js';
import type { AnyAnswer } from './handler.js';
import type { JsonText } from '../records/json-text.js';
import type { VersionChange, VersionedRequest } from '../versions/change.js';
import { changesOf, NEWEST_VERSION, supportedVersion, versionRefusal } from '../versions/registry.js';
import type { HeldKey } from '../store/held-key.js';
import {
  type AddressPaced,
  advance,
  type AppContext,
  type Authenticated,
  type BodyRead,
  type Keyed,
  type Received,
  type Routed,
  type Stage,
  type Validated,
  type Versioned,
} from './state.js';
import { toValidationIssues } from './validation-errors.js';

/**
 * The steps every request of the contract goes through, in this order (app.ts lists them):
 * route -> pace address -> authenticate -> tenant rate limit -> fair turn -> read body -> version ->
 * validate -> idempotency -> invoke.
 * Each reads the state of its stage and hands the next step the next stage's (state.ts).
 */

/**
 * Fails at startup when the handler table and the contract disagree: an operation without its handler, a
 * handler under another operation's name, `security` that says otherwise, a POST without its once-only
 * declaration, or a default a handler relies on that the contract does not give.
 */
export function checkHandlers(contract: Contract, handlers: Handlers): void {
  const byOperation = registry(handlers);
  const listedAsPublic = new Set(Object.keys(handlers.public));
  for (const operation of contract.operations.values()) {
    const handler = byOperation.get(operation.id);
    if (!handler) throw new Error(`openapi.yaml's operation ${operation.id} has no handler`);
    if (handler.operationId !== operation.id)
      throw new Error(`handlers/index.ts lists the handler of ${handler.operationId} as ${operation.id}'s`);
    if (operation.method === 'post' && handler.authenticated && !handler.onceOnly)
      throw new Error(`${operation.id} is a POST: its handler must declare how it is once-only (onceOnly)`);
    const listedAuthenticated = !listedAsPublic.has(operation.id);
    if (listedAuthenticated !== operation.authenticated || handler.authenticated !== operation.authenticated)
      throw new Error(
        `${operation.id}: openapi.yaml's security ${operation.authenticated ? 'asks for a bearer token' : 'is empty'}, ` +
          `but handlers/index.ts lists it as ${listedAuthenticated ? 'authenticated' : 'public'}`,
      );
    // every authenticated operation names the scope a token needs: a tenant's scope, or an admin scope
    const known = operation.audience === 'admin' ? isAdminScope : isScope;
    const declared = operation.scope !== undefined || (operation.anyToken && operation.audience === 'tenant');
    if (operation.authenticated !== declared || (operation.scope && !known(operation.scope)))
      throw new Error(
        `${operation.id}: openapi.yaml's x-scope ${operation.scope ?? '(none)'} is not one of the ` +
          `${operation.audience === 'admin' ? 'admin ' : ''}scopes, or is given where no token is asked for`,
      );
    for (const name of handler.defaults) {
      if (!operation.queryDefaults.has(name))
        throw new Error(
          `${operation.id}: the handler relies on a default for ${name}, which openapi.yaml does not give`,
        );
    }
  }
}

/**
 * A path segment whose percent-escapes do not decode (`%zz`, a cut UTF-8 sequence) is taken literally, as
 * Starlette does: it then fails validation like any other bad value, instead of throwing in the router.
 */
export function decodablePath(path: string): string {
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replaceAll('%', '%25');
      }
    })
    .join('/');
}

/** HEAD is answered as GET without a body (Node sends no body for HEAD). */
function methodOf(ctx: AppContext): string {
  return ctx.method === 'HEAD' ? 'GET' : ctx.method;
}

/** The operation the method and path name, or the contract's 404 and 405 in the error envelope. */
export function route(contract: Contract, audience: Audience): Stage<Received, Routed> {
  return (ctx, state, next) => {
    const match = contract.route(methodOf(ctx), decodablePath(ctx.path), audience);
    if (!match.found) {
      throw match.allowed.length > 0 ? ERRORS.methodNotAllowed(match.allowed) : ERRORS.routeNotFound();
    }
    return next(advance(state, { operation: match.operation }));
  };
}

/**
 * The tenant of the bearer token, for the operations whose contract `security` asks for one. A lookup
 * that fails is the server's fault, not the caller's: it propagates and renders as a 500 (or 503).
 */
export function authenticate(
  tokens: Pick<Services['tenants'], 'authenticate'>,
): Stage<AddressPaced, Authenticated> {
  return async (ctx, state, next) => {
    if (!state.operation.authenticated) return next(advance(state, { principal: undefined }));
    const token = bearerToken(ctx);
    if (!token) throw ERRORS.notAuthenticated(authorizationFault(ctx));
    const principal = await tokens.authenticate(token);
    if (principal === 'invalid') throw ERRORS.invalidToken(misplacedToken(token, state.operation.audience));
    if (principal === 'expired') throw ERRORS.tokenExpired();
    if (principal === 'suspended') throw ERRORS.tenantSuspended();
    const scope = state.operation.scope;
    // no query: the scopes came with the token
    if (scope !== undefined && !grants(principal.scopes, scope)) throw ERRORS.insufficientScope(scope);
    return next(advance(state, { principal }));
  };
}

/** The JSON body of an operation that takes one, read only now: a refused request never costs its body. */
export function readBody(): Stage<Authenticated, BodyRead> {
  return async (ctx, state, next) =>
    next(advance(state, { jsonBody: state.operation.jsonBody ? await readJsonBody(ctx) : undefined }));
}

const NO_CHANGES: readonly VersionChange[] = [];

/**
 * The API version the request is answered at: `Open-Tenant-Version` when sent, else the tenant's pin. A
 * request at an older version is brought up to the newest here, before validation, one change at a time,
 * oldest first; its answer is taken back down after the handler (`sendVersioned`). At the newest version
 * there is nothing to do: no change is looked at, nothing is copied.
 */
export function applyVersion(): Stage<BodyRead, Versioned> {
  return (ctx, state, next) => {
    // only the tenants' operations are versioned: health, readiness and the admin API answer at the newest
    if (state.operation.audience !== 'tenant')
      return next(advance(state, { version: NEWEST_VERSION, versionChanges: NO_CHANGES }));
    const asked = ctx.get('open-tenant-version');
    const pinned = state.principal?.apiVersion;
    const named = asked !== '' ? asked : (pinned ?? NEWEST_VERSION);
    const version = supportedVersion(named);
    if (version === undefined)
      throw ERRORS.unsupportedVersion(
        asked !== '' ? versionRefusal(named) : `The tenant's pinned version: ${versionRefusal(named)}`,
      );
    ctx.state.apiVersion = version;
    const changes = changesOf(version, state.operation.id);
    if (changes.length === 0) return next(advance(state, { version, versionChanges: changes }));
    const request: VersionedRequest = {
      operationId: state.operation.id,
      query: ctx.query as Record<string, unknown>,
      headers: ctx.headers,
      body: state.jsonBody,
    };
    for (let i = changes.length - 1; i >= 0; i--) changes[i]!.upRequest?.(request);
    return next(advance(state, { jsonBody: request.body, version, versionChanges: changes }));
  };
}

/**
 * A handler's answer (the newest version's) taken down to the request's version, newest change first, and
 * rendered. A list's items are JSON already: only a request at an older version pays for parsing them.
 */
export function sendVersioned(ctx: AppContext, state: Versioned, answer: AnyAnswer): void {
  // at the newest version (most requests) nothing is looked at
  if (state.versionChanges.length === 0 || answer.kind === 'raw' || answer.status >= 300)
    return sendAnswer(ctx, answer);
  const changes = state.versionChanges.filter((change) => change.downResponse);
  const operationId = state.operation.id;
  let data: unknown =
    answer.kind === 'data' ? answer.data : answer.items.map((item) => JSON.parse(item) as unknown);
  for (const change of changes) data = change.downResponse!(data, operationId);
  if (answer.kind === 'data') return sendAnswer(ctx, { ...answer, data });
  const items = (data as unknown[]).map((item) => JSON.stringify(item) as JsonText<unknown>);
  return sendAnswer(ctx, { ...answer, items });
}

/** The request judged by the contract's schemas (ajv); failures are FastAPI's `detail[]`. */
export function validate(contract: Contract): Stage<Versioned, Validated> {
  return (ctx, state, next) => {
    const { operation, jsonBody: body } = state;
    const headers = ctx.headers as Record<string, string | string[]>;
    const request: OpenApiRequest = normalize(operation, {
      method: methodOf(ctx),
      path: decodablePath(ctx.path),
      query: ctx.query as Record<string, string | string[]>,
      // an absent JSON body is validated as a missing `requestBody`, whatever Content-Type was sent
      headers:
        operation.jsonBody && body === undefined
          ? { ...headers, 'content-type': 'application/json' }
          : headers,
      body,
    });
    const result = contract.validate(operation, request);
    if (result.errors) {
      const issues = toValidationIssues(result.errors).map((issue) => {
        // header names as the contract spells them (Node gives them lower-cased), as FastAPI names them
        const declared =
          issue.loc[0] === 'header' ? operation.headerNames.get(issue.loc[1] ?? '') : undefined;
        return declared ? { ...issue, loc: ['header', declared, ...issue.loc.slice(2)] } : issue;
      });
      throw ERRORS.validation(issues);
    }
    return next(
      advance(state, {
        request: {
          operationId: operation.id,
          rawParams: result.rawParams,
          params: result.params,
          query: result.query,
          body: result.body,
        },
      }),
    );
  };
}

/**
 * An admin path names a tenant by its id or by the platform's own `external_id` (as Svix takes an app's uid
 * wherever its id goes): the handlers see the id. An external id no tenant has is 404, as an unknown id is.
 */
export function resolveTenant(
  tenants: Pick<Services['store']['tenants'], 'findByExternalId'>,
): Stage<Validated, Validated> {
  return async (ctx, state, next) => {
    const named = state.request.params.tenant_id;
    if (typeof named !== 'string' || TENANT_ID.test(named)) return next(state);
    // what no external id can be (TenantExternalId's pattern) is asked of no database: a NUL, a space
    const tenant = EXTERNAL_ID.test(named) ? await tenants.findByExternalId(named) : undefined;
    if (!tenant) throw ERRORS.notFound('Tenant');
    return next(
      advance(state, {
        request: { ...state.request, params: { ...state.request.params, tenant_id: tenant.id } },
      }),
    );
  };
}

/** The handlers by operation, whatever their types. */
export function registry(handlers: Handlers): ReadonlyMap<string, RegisteredHandler> {
  return new Map<string, RegisteredHandler>([
    ...Object.entries(handlers.public),
    ...Object.entries(handlers.authed),
  ]);
}

/** What a handler gets: the validated request, its tenant, and the key its effect is recorded on. */
export function scopeOf(
  ctx: AppContext,
  state: Validated,
  services: Services,
  effect: HeldKey | undefined,
): ValidatedScope {
  const { request, principal, version } = state;
  return {
    params: request.params,
    query: request.query,
    body: request.body,
    ctx,
    services,
    principal,
    effect,
    version,
  };
}

/** The operation's handler: the last step. */
export function invoke(handlers: Handlers, services: Services): Stage<Keyed, never> {
  const byOperation = registry(handlers);
  return async (ctx, state) => {
    const handler = byOperation.get(state.request.operationId);
    // checkHandlers found every operation's handler at start; an authenticated one gets its principal
    if (!handler || (handler.authenticated && !state.principal)) throw ERRORS.internal();
    sendVersioned(ctx, state, await handler.run(scopeOf(ctx, state, services, state.heldKey)));
  };
}
