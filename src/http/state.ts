import type { Middleware, ParameterizedContext } from 'koa';
import type { HeldKey } from '../store/held-key.js';
import type { Principal } from '../store/types.js';
import type { ContractOperation, OperationId } from './operations.js';
import type { ApiVersion, VersionChange } from '../versions/change.js';

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
 * What observers of a request read (the access log, the error boundary, the anonymous rate limit, Koa's
 * error event): every field a step learns, optional, as far as the steps got. The steps themselves never
 * read it: each gets the state of its stage (below), typed, and hands the next step the next stage's.
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
  /**
   * The API version the answer is rendered at, said in its `Open-Tenant-Version`: the header's when it
   * names a supported one, else the newest, until the version step settles it (the tenant's pin).
   */
  apiVersion?: ApiVersion;
  /** validate: the request as the contract accepted it */
  request?: ValidatedRequest;
  /** idempotency: the Idempotency-Key this request executes under, for the effect's transaction */
  heldKey?: HeldKey;
}

export type AppContext = ParameterizedContext<AppState>;
/** Koa middleware around the contract's steps (request id, client address, logs, error boundary). */
export type Step = Middleware<AppState>;

/** The stages of a request through the contract's steps, each what the one before knew and one thing more. */
export interface Received {
  requestId: string;
  traceId?: string;
  clientAddress: string;
}
/** route: the operation the method and path name. */
export interface Routed extends Received {
  operation: ContractOperation;
}
/** paceAddress: whether the request paid its address's bucket for its token's lookup. */
export interface AddressPaced extends Routed {
  addressCharged: boolean;
}
/** authenticate: the tenant of the bearer token; undefined for an operation that asks for none. */
export interface Authenticated extends AddressPaced {
  principal: Principal | undefined;
}
/** readBody: the JSON body as sent; undefined when none came or the operation takes none. */
export interface BodyRead extends Authenticated {
  jsonBody: unknown;
}
/**
 * applyVersion: the version the request is answered at, and the changes since it that touch its
 * operation (newest first; none at the newest version).
 */
export interface Versioned extends BodyRead {
  version: ApiVersion;
  versionChanges: readonly VersionChange[];
}
/** validate: the request as the contract accepted it. */
export interface Validated extends Versioned {
  request: ValidatedRequest;
}
/** idempotency: the Idempotency-Key the request executes under, if any. */
export interface Keyed extends Validated {
  heldKey: HeldKey | undefined;
}

/** One of the contract's steps: it reads its stage's state and hands the next step the next stage's. */
export type Stage<In, Out> = (
  ctx: AppContext,
  state: In,
  next: (state: Out) => Promise<void>,
) => Promise<void>;

/**
 * The next stage's state: the same object with the step's fields added, so that the observers find them on
 * `ctx.state` too.
 */
export function advance<S extends object, F extends object>(state: S, fields: F): S & F {
  return Object.assign(state, fields);
}

type Run<Out> = (ctx: AppContext, state: Received, last: (state: Out) => Promise<void>) => Promise<void>;

/**
 * The contract's steps in their order. Each `then` takes a step whose input is the state the steps before
 * it hand on: a step put before the one that learns what it needs does not compile.
 */
export class Stages<Out> {
  private constructor(private readonly run: Run<Out>) {}

  static start(): Stages<Received> {
    return new Stages<Received>((_ctx, state, last) => last(state));
  }

  then<Next>(stage: Stage<Out, Next>): Stages<Next> {
    const run = this.run;
    return new Stages<Next>((ctx, state, last) => run(ctx, state, (out) => stage(ctx, out, last)));
  }

  /** The Koa middleware that runs the steps, from what the middleware around them set (requestId, clientAddress). */
  middleware(this: Stages<never>): Step {
    const run = this.run;
    return (ctx) => run(ctx, ctx.state, () => Promise.resolve());
  }
}
