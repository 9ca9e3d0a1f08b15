import type { Middleware, ParameterizedContext } from 'koa';
import type { HeldKey } from '../store/held-key.js';
import type { Principal } from '../store/types.js';
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
