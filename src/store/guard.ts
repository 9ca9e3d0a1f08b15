import type { Store } from './types.js';

/**
 * Wraps every repository method so that the engine's transient failures reach callers as
 * StoreUnavailableError (503), whichever engine raised them; `translate` knows the engine's errors.
 */
export function guardStore(store: Store, translate: (error: unknown) => unknown): Store {
  const guard = <R extends object>(repo: R): R => {
    const guarded: Record<string, unknown> = {};
    for (const [name, method] of Object.entries(repo)) {
      guarded[name] =
        typeof method === 'function'
          ? (...args: unknown[]) => {
              try {
                const result: unknown = (method as (...a: unknown[]) => unknown).apply(repo, args);
                return result instanceof Promise
                  ? result.catch((error: unknown) => Promise.reject(translate(error)))
                  : result;
              } catch (error) {
                throw translate(error);
              }
            }
          : method;
    }
    return guarded as R;
  };
  return {
    tenants: guard(store.tenants),
    uploads: guard(store.uploads),
    events: guard(store.events),
    webhooks: guard(store.webhooks),
    runs: guard(store.runs),
    ledger: guard(store.ledger),
    idempotency: guard(store.idempotency),
    rateBuckets: store.rateBuckets && guard(store.rateBuckets),
    ping: guard({ ping: store.ping }).ping,
    maintain: guard({ maintain: store.maintain }).maintain,
    close: store.close,
  };
}
