import type { operations } from '../../generated/openapi.js';
import type { ErrorCode } from '../kernel/errors.js';
import type { JsonText } from '../records/json-text.js';
import type { Services } from '../composition/services.js';
import type { HeldKey } from '../store/held-key.js';
import type { Principal } from '../store/types.js';
import type { OperationId } from './operations.js';
import type { AppContext } from './state.js';
import type { ApiVersion } from '../versions/change.js';

/**
 * A handler is typed by its operation: its path parameters, query and body are the contract's generated
 * types, and what it answers must be one of the operation's declared 2xx shapes. The request pipeline
 * (pipeline.ts) builds the scope from the validated request and renders the answer (render.ts).
 */

type Operation<K extends OperationId> = operations[K];

export type PathOf<K extends OperationId> = Operation<K>['parameters'] extends { path: infer P }
  ? P
  : Record<string, never>;
export type QueryOf<K extends OperationId> = Operation<K>['parameters'] extends { query?: infer Q }
  ? [Q] extends [undefined]
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;
export type BodyOf<K extends OperationId> =
  Operation<K> extends {
    requestBody: { content: { 'application/json': infer B } };
  }
    ? B
    : Operation<K> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B | undefined
      : undefined;

/** The query keys the contract gives a default (validation has filled them in); declared by the handler. */
export type DefaultableKey<K extends OperationId> = keyof QueryOf<K> & string;
type Defaulted<T, D extends keyof T> = T & Required<Pick<T, D>>;

type Responses<K extends OperationId> = Operation<K>['responses'];
export type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202>;
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type EnvelopeData<B> = [B] extends [never] ? never : B extends { data: infer D } ? D : never;
type DataOf<K extends OperationId, S extends SuccessStatus<K>> = EnvelopeData<JsonBody<Responses<K>[S]>>;
/** The top-level fields a JSON answer has beside the envelope's own (the list's `next_cursor`). */
type ExtraOf<K extends OperationId, S extends SuccessStatus<K>> = Omit<
  JsonBody<Responses<K>[S]>,
  'code' | 'message' | 'data' | 'timestamp' | 'total' | 'page' | 'page_size' | 'total_pages'
>;

export interface ListMeta {
  total: number;
  page: number;
  page_size: number;
}

/** `data` in the success envelope. */
export interface DataAnswer<S, D> {
  kind: 'data';
  status: S;
  data: D;
}

/** A list whose items are JSON already (stored copies): the envelope is written around them. */
export interface ListAnswer<S, T, E> {
  kind: 'list';
  status: S;
  items: readonly JsonText<T>[];
  /** The page's figures, for a list envelope (total, page, page_size, total_pages). */
  meta?: ListMeta;
  extra: E;
}

/** An answer that is not JSON (a file, an event stream): the handler writes it on the context. */
export interface RawAnswer<S> {
  kind: 'raw';
  status: S;
  write: (ctx: AppContext) => void;
}

type AnswerFor<K extends OperationId, S extends SuccessStatus<K>> = [DataOf<K, S>] extends [never]
  ? RawAnswer<S>
  : | DataAnswer<S, DataOf<K, S>>
    | (DataOf<K, S> extends readonly (infer T)[] ? ListAnswer<S, T, ExtraOf<K, S>> : never);

/** Any handler's answer, as the renderer takes it. */
export type AnyAnswer =
  DataAnswer<number, unknown> | ListAnswer<number, unknown, unknown> | RawAnswer<number>;

/** What a handler of operation K may answer: one of its declared 2xx shapes. */
export type Answer<K extends OperationId> = { [S in SuccessStatus<K>]: AnswerFor<K, S> }[SuccessStatus<K>];

export const ok = <D>(data: D): DataAnswer<200, D> => ({ kind: 'data', status: 200, data });
export const created = <D>(data: D): DataAnswer<201, D> => ({ kind: 'data', status: 201, data });
export const accepted = <D>(data: D): DataAnswer<202, D> => ({ kind: 'data', status: 202, data });
export const list = <T, E>(
  items: readonly JsonText<T>[],
  extra: E,
  meta?: ListMeta,
): ListAnswer<200, T, E> => ({
  kind: 'list',
  status: 200,
  items,
  meta,
  extra,
});
export const raw = (write: (ctx: AppContext) => void): RawAnswer<200> => ({
  kind: 'raw',
  status: 200,
  write,
});

/** What a handler gets: its operation's request in the contract's types, the context, the services. */
export interface Scope<K extends OperationId, D extends DefaultableKey<K> = never> {
  params: PathOf<K>;
  query: Defaulted<QueryOf<K>, D>;
  body: BodyOf<K>;
  ctx: AppContext;
  services: Services;
  /**
   * The API version the request is answered at. Handlers speak the newest version only (the version step
   * translates around them); this is for what outlives the request: an endpoint keeps the version it was
   * made at, a stream renders its events at it.
   */
  version: ApiVersion;
}

export interface AuthedScope<K extends OperationId, D extends DefaultableKey<K> = never> extends Scope<K, D> {
  principal: Principal;
  /**
   * The Idempotency-Key the request executes under, when it sent one: a handler passes it to the domain
   * call that makes its effect, which records the effect on the key in its own transaction.
   */
  effect?: HeldKey;
}

/**
 * How a POST is once-only under an Idempotency-Key. Either the effect is recorded on the key, and `recover`
 * rebuilds the answer from it (the resource as it is now, with the status the first answer would have had)
 * when the request that made it died before its answer was kept; or `needsNoRecord` says why none is needed.
 */
export type OnceOnlyPolicy<K extends OperationId> = (
  { recover: (scope: AuthedScope<K>, resourceId: string) => Promise<Answer<K>> } | { needsNoRecord: string }
) & {
  /**
   * The operation's 409 codes that are final (no later state makes the same request succeed): they are
   * kept and replayed. Any other 409 changed nothing and can change, so a retry executes again.
   */
  finalConflicts: readonly ErrorCode[];
  /**
   * The answer shows a secret stored hashed (a token's): it is never kept for a replay, and a retry is
   * answered by `recover`, which makes the secret anew.
   */
  answerHoldsSecret?: boolean;
};

/** The operations that take no token, as openapi.yaml's `security: []` says; startup checks the two agree. */
export type PublicOperationId = 'getHealth' | 'getReadiness';
export type AuthedOperationId = Exclude<OperationId, PublicOperationId>;

/**
 * A scope as the pipeline builds it, before it is seen in an operation's types: ajv checked the request
 * against the schemas those types are generated from, and filled in the defaults.
 */
export interface ValidatedScope {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  ctx: AppContext;
  services: Services;
  principal?: Principal;
  effect?: HeldKey;
  version: ApiVersion;
}

/** A handler as the pipeline runs it, whatever its operation. */
export interface RegisteredHandler {
  operationId: OperationId;
  /** Query keys the handler relies on the contract's default for; checked against openapi.yaml at start. */
  defaults: readonly string[];
  /** Whether it needs the principal of a bearer token. */
  authenticated: boolean;
  run(scope: ValidatedScope): Promise<AnyAnswer>;
  onceOnly?: RegisteredOnceOnly;
}

/** A POST's once-only declaration (see OnceOnlyPolicy), whatever its operation. */
export type RegisteredOnceOnly = (
  { recover: (scope: ValidatedScope, resourceId: string) => Promise<AnyAnswer> } | { needsNoRecord: string }
) & { finalConflicts: readonly ErrorCode[]; answerHoldsSecret?: boolean };

export interface AuthedHandler<K extends AuthedOperationId> extends RegisteredHandler {
  operationId: K;
}

export interface PublicHandler<K extends PublicOperationId> extends RegisteredHandler {
  operationId: K;
}

interface HandlerOptions<K extends AuthedOperationId, D extends DefaultableKey<K>> {
  defaults?: readonly D[];
  onceOnly?: OnceOnlyPolicy<K>;
}

/** The validated scope in operation K's types: the one place the two meet (see ValidatedScope). */
function typed<K extends OperationId, D extends DefaultableKey<K>>(scope: ValidatedScope): AuthedScope<K, D> {
  if (!scope.principal) throw new Error('an authenticated handler ran without a principal');
  return scope as unknown as AuthedScope<K, D>;
}

/** The handler of an operation that takes a token. */
export function authed<K extends AuthedOperationId, const D extends DefaultableKey<K> = never>(
  operationId: K,
  options: HandlerOptions<K, D>,
  handle: (scope: AuthedScope<K, D>) => Promise<Answer<K>>,
): AuthedHandler<K> {
  const policy = options.onceOnly;
  return {
    operationId,
    defaults: options.defaults ?? [],
    authenticated: true,
    run: (scope) => handle(typed<K, D>(scope)),
    onceOnly:
      policy &&
      ('recover' in policy
        ? {
            finalConflicts: policy.finalConflicts,
            answerHoldsSecret: policy.answerHoldsSecret,
            recover: (scope, resourceId) => policy.recover(typed<K, never>(scope), resourceId),
          }
        : policy),
  };
}

/** The handler of an operation the contract leaves open (`security: []`). */
export function open<K extends PublicOperationId>(
  operationId: K,
  handle: (scope: Scope<K>) => Promise<Answer<K>>,
): PublicHandler<K> {
  return {
    operationId,
    defaults: [],
    authenticated: false,
    run: (scope) => handle(scope as unknown as Scope<K>),
  };
}

/** Every operation of the contract has its handler, typed by its operation: a missing one does not compile. */
export interface Handlers {
  public: { [K in PublicOperationId]: PublicHandler<K> };
  authed: { [K in AuthedOperationId]: AuthedHandler<K> };
}
