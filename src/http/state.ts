import type { Middleware, ParameterizedContext } from 'koa';
import type { Services } from '../services.js';
import type { HeldKey } from '../store/held-key.js';
import type { Principal } from '../store/types.js';
import type { ErrorCode } from '../errors.js';
import type { ContractOperation, OperationId } from './operations.js';

/** A request as validated against its operation: what a handler reads. */
export interface ValidatedRequest {
  operationId: OperationId;
  /** path parameters as the path writes them (strings): the idempotency fingerprint hashes these */
  rawParams: Record<string, string>;
  /** path parameters, types coerced */
  params: Record<string, unknown>;
  /** declared query parameters, types coerced and defaults applied */
  query: Record<string, unknown>;
  /** the JSON body, or undefined for an operation that takes none */
  body: unknown;
}

/**
 * What the pipeline's steps learn about a request, in the order they learn it. Each step writes its own
 * field; nothing else is kept on `ctx.state`.
 */
export interface AppState {
  /** requestId: X-Request-Id as given when sane, else a new UUID */
  requestId: string;
  /** requestId: the W3C traceparent's trace id, when one came */
  traceId?: string;
  /** clientAddress: the peer's address, or the client's as a trusted proxy forwarded it */
  clientAddress: string;
  /** route: the contract operation the method and path name */
  operation?: ContractOperation;
  /** authenticate: the tenant of the bearer token */
  principal?: Principal;
  /** the rate limit step: a bucket already explained this answer in its headers */
  rateLimited?: boolean;
  /** paceAddress: the request took one from its address's bucket before its token was looked up */
  addressCharged?: boolean;
  /** readBody: the JSON body as sent (its text when it is not JSON); undefined when none came */
  jsonBody?: unknown;
  /** validate: the request as the contract accepted it */
  request?: ValidatedRequest;
  /** idempotency: the Idempotency-Key this request executes under, for the effect's transaction */
  heldKey?: HeldKey;
}

export type AppContext = ParameterizedContext<AppState>;
export type Step = Middleware<AppState>;

/** What a handler gets: the validated request, the Koa context to answer on, and the domain services. */
export interface Scope {
  request: ValidatedRequest;
  ctx: AppContext;
  services: Services;
}

export interface AuthedScope extends Scope {
  principal: Principal;
  /**
   * The Idempotency-Key the request executes under, when it sent one: a handler passes it to the domain
   * call that makes its effect, which records the effect on the key in its own transaction.
   */
  effect?: HeldKey;
}

export type PublicHandler = (scope: Scope) => Promise<void>;
export type AuthedHandler = (scope: AuthedScope) => Promise<void>;

/**
 * How a POST is once-only under an Idempotency-Key, declared by its handler (see onceOnly()). Either the
 * effect is recorded on the key, and `recover` rebuilds the answer from it (the resource as it is now,
 * with the status the first answer would have had) when the request that made it died before its answer
 * was kept; or `needsNoRecord` says why none is needed.
 */
export type OnceOnlyPolicy = (
  { recover: (scope: AuthedScope, resourceId: string) => Promise<void> } | { needsNoRecord: string }
) & {
  /**
   * The operation's 409 codes that are final (no later state makes the same request succeed): they are
   * kept and replayed. Any other 409 changed nothing and can change, so a retry executes again.
   */
  finalConflicts: readonly ErrorCode[];
};

export type OnceOnlyHandler = AuthedHandler & { readonly onceOnly: OnceOnlyPolicy };

/** A POST handler with its once-only policy. */
export function onceOnly(handle: AuthedHandler, policy: OnceOnlyPolicy): OnceOnlyHandler {
  return Object.assign(handle, { onceOnly: policy });
}
