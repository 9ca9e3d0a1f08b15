import { createHash, randomUUID } from 'node:crypto';
import { AppError, ERRORS } from '../errors.js';
import { type HeldKey, HeldKeyLostError, withHeldKey } from '../store/effect-scope.js';
import type { Services } from '../services.js';
import type { StoredAnswer } from '../store/types.js';
import type { OperationId } from './operations.js';
import type { AppContext, AuthedScope, Step } from './state.js';
import { sendError, sendOk } from './render.js';
import { sweepInBatches } from '../store/sweep.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The headers of an answer that a replay repeats; the rest belong to the request that gets the replay. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after'];

type Recovery = (scope: AuthedScope, resourceId: string) => Promise<void>;

/** A recovery that answers with the effect's resource as it is now, and the first answer's status. */
function answerWith(
  read: (services: Services, tenantId: string, resourceId: string) => Promise<unknown>,
  status = 200,
): { recover: Recovery } {
  return {
    recover: async ({ ctx, services, principal }, resourceId) =>
      sendOk(ctx, await read(services, principal.tenantId, resourceId), status),
  };
}

/**
 * What makes each POST once-only under an `Idempotency-Key`. Most record their effect on the key in the
 * effect's own transaction (the repository calls `recordEffect`), and `recover` rebuilds the answer from
 * that effect when the request that made it died before storing its answer: the resource as it is now, with
 * the status the first answer would have had. The others say why they need no record. Every POST of the
 * contract is here: test/http/once-only.test.ts walks openapi.yaml and fails on one that is missing.
 */
export const ONCE_ONLY: Readonly<Record<string, { recover: Recovery } | { needsNoRecord: string }>> = {
  createUpload: answerWith(({ uploads }, tenantId, id) => uploads.get(tenantId, id), 201),
  completeUpload: {
    needsNoRecord: 'idempotent by itself: executed again, it finds the file it made and answers with it',
  },
  createRun: answerWith(({ runs }, tenantId, id) => runs.get(tenantId, id), 201),
  rerunRun: answerWith(({ runs }, tenantId, id) => runs.get(tenantId, id)),
  cancelRun: answerWith(({ runs }, tenantId, id) => runs.get(tenantId, id)),
  // the secret is the endpoint's: the answer that showed it once is shown again to the same key only
  createWebhookEndpoint: answerWith(({ webhooks }, tenantId, id) => webhooks.withSecret(tenantId, id), 201),
  rotateWebhookSecret: answerWith(({ webhooks }, tenantId, id) => webhooks.withSecret(tenantId, id)),
  enableWebhookEndpoint: answerWith(({ webhooks }, tenantId, id) => webhooks.get(tenantId, id)),
};

function recoveryOf(operationId: OperationId): Recovery | undefined {
  const policy = ONCE_ONLY[operationId];
  return policy && 'recover' in policy ? policy.recover : undefined;
}

/** JSON with every object's keys sorted, so that the same body written differently is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fingerprintOf(scope: AuthedScope): string {
  const { request, ctx } = scope;
  return createHash('sha256')
    .update(
      `${ctx.method}\n${request.operationId}\n${canonical(request.rawParams)}\n${canonical(request.body)}`,
    )
    .digest('base64url');
}

/** Answers that changed something are kept for retries: successes, and 409 for a state conflict. */
function isKept(status: number, error?: AppError): boolean {
  if (status >= 200 && status < 300) return true;
  return status === 409 && error !== undefined && error.error !== 'idempotency_key_in_use';
}

function answerOf(ctx: AppContext): StoredAnswer {
  const body = typeof ctx.body === 'string' ? ctx.body : JSON.stringify(ctx.body);
  // the body is sent as stored, so that a replay is byte for byte the first answer
  ctx.body = body;
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = ctx.response.get(name);
    if (value) headers[name] = value;
  }
  return { status: ctx.status, headers, body };
}

function replay(ctx: AppContext, answer: StoredAnswer): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.set('Idempotent-Replayed', 'true');
  let body = answer.body;
  if (answer.status >= 400) {
    // a failing envelope's request_id names the request that reads it, as the X-Request-Id header does
    const envelope = JSON.parse(body) as Record<string, unknown>;
    body = JSON.stringify({ ...envelope, request_id: ctx.state.requestId });
  }
  ctx.body = body;
}

/**
 * The idempotency step of an authenticated POST: with an `Idempotency-Key`, the first request executes
 * under the key and its answer is stored; a retry with the same request gets that answer again
 * (`Idempotent-Replayed: true`), one with a different request 422, and one while the first still executes
 * 409 with `Retry-After`.
 */
export function idempotency(services: Services): Step {
  return async (ctx, next) => {
    const { principal, request, operation } = ctx.state;
    const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
    if (key === '' || operation?.method !== 'post' || !principal || !request) return next();
    const scope: AuthedScope = { ctx, services, principal, request };
    const operationId = request.operationId;
    const { store, clock, config } = services;
    const held: HeldKey = { tenantId: principal.tenantId, key, token: randomUUID() };
    const now = clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const claim = await store.idempotency.claim(
      held,
      fingerprintOf(scope),
      iso(now),
      iso(now + config.idempotencyLockMs),
      iso(now + config.idempotencyKeyTtlMs),
    );
    if (claim.outcome === 'mismatch') throw ERRORS.idempotencyKeyReused();
    if (claim.outcome === 'in_use') {
      const wait = Math.max(1, Math.ceil((Date.parse(claim.lockedUntil) - now) / 1000));
      throw ERRORS.idempotencyKeyInUse(Math.min(wait, Math.ceil(config.idempotencyLockMs / 1000)));
    }
    if (claim.outcome === 'replay') return replay(ctx, claim.answer);

    // the lock outlives a request only by as long as its process could not renew it
    const renewal = setInterval(() => {
      const at = clock.now().getTime();
      store.idempotency.renew(held, iso(at + config.idempotencyLockMs)).catch(() => undefined);
    }, config.idempotencyLockMs / 3);
    let failure: AppError | undefined;
    try {
      const recover = claim.resourceId !== null ? recoveryOf(operationId) : undefined;
      if (recover && claim.resourceId !== null) {
        // not executed now: the effect is an earlier request's, so this answer is a replay too
        await recover(scope, claim.resourceId);
        ctx.set('Idempotent-Replayed', 'true');
      } else await withHeldKey(held, () => next());
    } catch (error) {
      if (error instanceof HeldKeyLostError) {
        clearInterval(renewal);
        throw ERRORS.idempotencyKeyInUse(1);
      }
      if (!(error instanceof AppError) || !isKept(error.status, error)) {
        clearInterval(renewal);
        await store.idempotency.release(held, iso(clock.now().getTime())).catch(() => undefined);
        throw error;
      }
      failure = error;
      sendError(ctx, error);
    }
    clearInterval(renewal);
    if (!isKept(ctx.status, failure)) {
      await store.idempotency.release(held, iso(clock.now().getTime()));
      return;
    }
    const answer = answerOf(ctx);
    // the effect is committed and recorded on the key: a retry rebuilds this answer if it was not stored
    await store.idempotency.saveAnswer(held, answer).catch((error: unknown) => {
      services.logger.warn(
        { err: error, request_id: ctx.state.requestId },
        'an idempotent answer was not stored',
      );
    });
  };
}

/** Deletes keys past IDEMPOTENCY_KEY_TTL_SECONDS, in bounded batches; returns how many went. */
export async function sweepExpiredKeys(services: Pick<Services, 'store' | 'clock'>): Promise<number> {
  const now = services.clock.now().toISOString();
  return sweepInBatches((limit) => services.store.idempotency.sweep(now, limit));
}
