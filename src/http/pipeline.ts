import type { Request as OpenApiRequest } from 'openapi-backend';
import { ERRORS } from '../errors.js';
import { bearerToken } from './bearer.js';
import type { Services } from '../services.js';
import { normalize } from './normalize.js';
import type { Contract, OperationId } from './operations.js';
import { readJsonBody } from './request-body.js';
import type { AppContext, AuthedHandler, PublicHandler, Step } from './state.js';
import { toValidationIssues } from './validation-errors.js';

/**
 * The steps every request of the contract goes through, in this order (app.ts lists them):
 * route -> authenticate -> rate limit -> fair turn -> read body -> validate -> idempotency -> invoke.
 * Each is a Koa middleware that writes what it learnt to its own field of `ctx.state` (state.ts).
 */

/** The operations that take no token, as openapi.yaml's `security: []` says; startup checks the two agree. */
export type PublicOperationId = 'getHealth' | 'getReadiness';

/** Every operation of the contract has its handler: a missing one does not compile. */
export interface Handlers {
  public: Record<PublicOperationId, PublicHandler>;
  authed: Record<Exclude<OperationId, PublicOperationId>, AuthedHandler>;
}

/** Fails at startup when the handler table and the contract's `security` disagree on an operation. */
export function checkHandlers(contract: Contract, handlers: Handlers): void {
  for (const operation of contract.operations.values()) {
    const isPublic = operation.id in handlers.public;
    if (!isPublic && !(operation.id in handlers.authed))
      throw new Error(`openapi.yaml's operation ${operation.id} has no handler`);
    const handler = handlers.authed[operation.id as keyof Handlers['authed']] as
      { onceOnly?: unknown } | undefined;
    if (operation.method === 'post' && !isPublic && !handler?.onceOnly)
      throw new Error(`${operation.id} is a POST: its handler must declare how it is once-only (onceOnly())`);
    if (isPublic === operation.authenticated)
      throw new Error(
        `${operation.id}: openapi.yaml's security ${operation.authenticated ? 'asks for a bearer token' : 'is empty'}, ` +
          `but handlers/index.ts lists it as ${isPublic ? 'public' : 'authenticated'}`,
      );
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
export function route(contract: Contract): Step {
  return (ctx, next) => {
    const match = contract.route(methodOf(ctx), decodablePath(ctx.path));
    if (!match.found) {
      throw match.allowed.length > 0 ? ERRORS.methodNotAllowed(match.allowed) : ERRORS.routeNotFound();
    }
    ctx.state.operation = match.operation;
    return next();
  };
}

/**
 * The tenant of the bearer token, for the operations whose contract `security` asks for one. A lookup
 * that fails is the server's fault, not the caller's: it propagates and renders as a 500 (or 503).
 */
export function authenticate(tenants: Services['tenants']): Step {
  return async (ctx, next) => {
    if (!ctx.state.operation?.authenticated) return next();
    const token = bearerToken(ctx);
    if (!token) throw ERRORS.notAuthenticated();
    const principal = await tenants.authenticate(token);
    if (principal === 'invalid') throw ERRORS.invalidToken();
    ctx.state.principal = principal;
    return next();
  };
}

/** The JSON body of an operation that takes one, read only now: a refused request never costs its body. */
export function readBody(): Step {
  return async (ctx, next) => {
    if (ctx.state.operation?.jsonBody) ctx.state.jsonBody = await readJsonBody(ctx);
    return next();
  };
}

/** The request judged by the contract's schemas (ajv); failures are FastAPI's `detail[]`. */
export function validate(contract: Contract): Step {
  return (ctx, next) => {
    const operation = ctx.state.operation!;
    const body = ctx.state.jsonBody;
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
    ctx.state.request = {
      operationId: operation.id,
      rawParams: result.rawParams,
      params: result.params,
      query: result.query,
      body: result.body,
    };
    return next();
  };
}

/** The operation's handler: the last step. */
export function invoke(handlers: Handlers, services: Services): Step {
  const publicHandlers: Partial<Record<OperationId, PublicHandler>> = handlers.public;
  const authedHandlers: Partial<Record<OperationId, AuthedHandler>> = handlers.authed;
  return async (ctx) => {
    const request = ctx.state.request!;
    const { principal } = ctx.state;
    const authed = authedHandlers[request.operationId];
    if (authed && principal) return authed({ request, ctx, services, principal, effect: ctx.state.heldKey });
    const open = publicHandlers[request.operationId];
    if (open) return open({ request, ctx, services });
    throw ERRORS.internal();
  };
}
