import type { Store } from './types.js';

type Translate = (error: unknown) => unknown;

/**
 * A repository whose every method (its own or its class's) hands the engine's transient failures to callers
 * as `translate` says (StoreUnavailableError, 503; DiskFullError, a 503 that says the disk is full). A
 * Proxy, not a copy: nothing of the repository is enumerated, so class methods and fields added later are
 * guarded too, and the type is the repository's own.
 */
export function guardRepo<R extends object>(repo: R, translate: Translate): R {
  const guarded = new Map<PropertyKey, unknown>();
  return new Proxy(repo, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = guarded.get(property);
      if (!method) {
        method = (...args: unknown[]): unknown => {
          try {
            const result: unknown = Reflect.apply(value, target, args);
            return result instanceof Promise
              ? result.catch((error: unknown) => Promise.reject(translate(error)))
              : result;
          } catch (error) {
            throw translate(error);
          }
        };
        guarded.set(property, method);
      }
      return method;
    },
  });
}

/**
 * Wraps every repository so that the engine's transient failures reach callers as StoreUnavailableError
 * (503), whichever engine raised them; `translate` knows the engine's errors.
 */
export function guardStore(store: Store, translate: Translate): Store {
  return {
    transaction: guardRepo({ transaction: store.transaction }, translate).transaction,
    tenants: guardRepo(store.tenants, translate),
    platform: guardRepo(store.platform, translate),
    offboarding: guardRepo(store.offboarding, translate),
    uploads: guardRepo(store.uploads, translate),
    events: guardRepo(store.events, translate),
    webhooks: guardRepo(store.webhooks, translate),
    runs: guardRepo(store.runs, translate),
    ledger: guardRepo(store.ledger, translate),
    idempotency: guardRepo(store.idempotency, translate),
    rateBuckets: store.rateBuckets && guardRepo(store.rateBuckets, translate),
    ping: guardRepo({ ping: store.ping }, translate).ping,
    maintain: guardRepo({ maintain: store.maintain }, translate).maintain,
    close: store.close,
  };
}
