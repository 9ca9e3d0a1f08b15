import type { operations } from '../../generated/openapi.js';
import type { OperationId } from './operations.js';
import type { ValidatedRequest } from './state.js';

type QueryOf<K extends OperationId> = operations[K]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;
type PathOf<K extends OperationId> = operations[K]['parameters'] extends { path: infer P } ? P : never;
type BodyOf<K extends OperationId> = operations[K] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** Keys the contract gives a default: validation has filled them in. */
type Defaulted<T, K extends keyof T> = T & Required<Pick<T, K>>;

/**
 * The validated request in the contract's generated types. The schemas ajv checked are the ones these types
 * are generated from, so the casts below restate what validation proved.
 */
export function queryOf<K extends OperationId, D extends keyof QueryOf<K> = never>(
  request: ValidatedRequest,
): Defaulted<QueryOf<K>, D> {
  return request.query as Defaulted<QueryOf<K>, D>;
}

export function pathOf<K extends OperationId>(request: ValidatedRequest): PathOf<K> {
  return request.params as PathOf<K>;
}

export function bodyOf<K extends OperationId, D extends keyof BodyOf<K> = never>(
  request: ValidatedRequest,
): Defaulted<BodyOf<K>, D> {
  return request.body as Defaulted<BodyOf<K>, D>;
}
