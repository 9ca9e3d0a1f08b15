/**
 * Typed in-memory fakes of the service's dependencies, as immich's `newTestService` makes them: every method
 * of every repository is a `vi.fn()` typed as the interface's method, which fails loudly until the test says
 * what it answers. A service under test gets the real interfaces, with no cast at the boundary.
 */
import { expect, type Mock, vi } from 'vitest';
import { AppError } from '../../src/kernel/errors.js';
import type { BlobStore, MultipartStore } from '../../src/blobs/blob-store.js';
import { type Config, loadConfig } from '../../src/kernel/config.js';
import { createLogger } from '../../src/kernel/logger.js';
import type {
  OffboardingRepo,
  PlatformRepo,
  EventRepo,
  IdempotencyRepo,
  LedgerRepo,
  RunChanges,
  RunRepo,
  Store,
  TenantRepo,
  UnitOfWork,
  UploadChanges,
  UploadRepo,
  WebhookChanges,
  WebhookRepo,
} from '../../src/store/types.js';
import type { Clock } from '../../src/kernel/time.js';

type Method = (...args: never[]) => unknown;
/** An interface whose methods are typed mocks. */
export type Fake<T> = { [K in keyof T]: T[K] extends Method ? Mock<T[K]> & T[K] : T[K] };

/** A fake of interface T: a mock per method, made when first touched, that throws until it is given an answer. */
export function fake<T extends object>(name: string): Fake<T> {
  const methods = new Map<PropertyKey, Mock>();
  return new Proxy({} as Fake<T>, {
    get(_target, property) {
      if (property === 'then') return undefined; // not a promise
      let method = methods.get(property);
      if (!method) {
        method = vi.fn(() => {
          throw new Error(`${name}.${String(property)} was called, but the test gave it no answer`);
        });
        methods.set(property, method);
      }
      return method;
    },
  });
}

export interface FakeStore {
  tenants: Fake<TenantRepo>;
  platform: Fake<PlatformRepo>;
  offboarding: Fake<OffboardingRepo>;
  uploads: Fake<UploadRepo>;
  runs: Fake<RunRepo>;
  ledger: Fake<LedgerRepo>;
  events: Fake<EventRepo>;
  webhooks: Fake<WebhookRepo>;
  idempotency: Fake<IdempotencyRepo>;
}

/**
 * The unit of work every `store.transaction` of a fake store gets: its repositories are fakes, `emit` and
 * `recordEffect` answer at once (and record their calls), `afterCommit` hooks run once the work returned.
 */
export interface FakeUnit {
  runs: Fake<RunChanges>;
  uploads: Fake<UploadChanges>;
  webhooks: Fake<WebhookChanges>;
  emit: Mock<UnitOfWork['emit']>;
  recordEffect: Mock<UnitOfWork['recordEffect']>;
}

export interface TestDeps {
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  config: Config;
}

export interface TestMocks {
  store: FakeStore;
  unit: FakeUnit;
  blobs: Fake<BlobStore>;
  multipart: Fake<MultipartStore>;
  clock: { now: Mock<() => Date> };
}

export const NOW = new Date('2026-11-27T10:00:00.000Z');

/**
 * A service built by `make` from fakes of everything it uses: `sut` is the service, `mocks` its fakes.
 * `env` sets the configuration as the server reads it.
 */
export function newTestService<S>(
  make: (deps: TestDeps) => S,
  env: Record<string, string> = {},
): { sut: S; mocks: TestMocks } {
  const store: FakeStore = {
    tenants: fake<TenantRepo>('store.tenants'),
    platform: fake<PlatformRepo>('store.platform'),
    offboarding: fake<OffboardingRepo>('store.offboarding'),
    uploads: fake<UploadRepo>('store.uploads'),
    runs: fake<RunRepo>('store.runs'),
    ledger: fake<LedgerRepo>('store.ledger'),
    events: fake<EventRepo>('store.events'),
    webhooks: fake<WebhookRepo>('store.webhooks'),
    idempotency: fake<IdempotencyRepo>('store.idempotency'),
  };
  const multipart = fake<MultipartStore>('blobs.multipart');
  const blobs = fake<BlobStore>('blobs');
  const blobStore: BlobStore = new Proxy(blobs, {
    get: (target, property) => (property === 'multipart' ? multipart : Reflect.get(target, property)),
  });
  const unit: FakeUnit = {
    runs: fake<RunChanges>('unit.runs'),
    uploads: fake<UploadChanges>('unit.uploads'),
    webhooks: fake<WebhookChanges>('unit.webhooks'),
    emit: vi.fn<UnitOfWork['emit']>(async () => undefined),
    recordEffect: vi.fn<UnitOfWork['recordEffect']>(async () => undefined),
  };
  const transaction: Store['transaction'] = async (tenantId, work) => {
    const hooks: (() => void)[] = [];
    const result = await work({ tenantId, ...unit, afterCommit: (hook) => hooks.push(hook) });
    for (const hook of hooks) hook();
    return result;
  };
  const clock = { now: vi.fn(() => NOW) };
  const deps: TestDeps = {
    store: {
      ...store,
      transaction,
      rateBuckets: null,
      ping: async () => undefined,
      maintain: async () => undefined,
      close: async () => undefined,
    },
    blobs: blobStore,
    clock,
    config: loadConfig(env),
  };
  return { sut: make(deps), mocks: { store, unit, blobs, multipart, clock } };
}

export const silentLogger = createLogger('silent');

/** The AppError a service call fails with (the test fails if it succeeds or fails otherwise). */
export async function failure(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
