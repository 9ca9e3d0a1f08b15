import type { Context as OpenApiContext } from 'openapi-backend';
import type { operations } from '../../generated/openapi.js';
import type { OperationId } from './api.js';

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

interface Validated {
  coerced: { query?: unknown; params?: unknown };
}

/** The query as validated: types coerced, defaults applied, unknown keys dropped. */
export function queryOf<K extends OperationId, D extends keyof QueryOf<K> = never>(
  c: OpenApiContext,
): Defaulted<QueryOf<K>, D> {
  return ((c.validation as unknown as Validated).coerced.query ?? {}) as Defaulted<QueryOf<K>, D>;
}

export function pathOf<K extends OperationId>(c: OpenApiContext): PathOf<K> {
  return ((c.validation as unknown as Validated).coerced.params ?? c.request.params) as PathOf<K>;
}

export function bodyOf<K extends OperationId, D extends keyof BodyOf<K> = never>(
  c: OpenApiContext,
): Defaulted<BodyOf<K>, D> {
  return c.request.requestBody as Defaulted<BodyOf<K>, D>;
}
