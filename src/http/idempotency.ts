import { AppError, ERRORS } from '../kernel/errors.js';
import { fingerprintOf } from '../idempotency/fingerprint.js';
import type { KeyLease } from '../idempotency/keys.js';
import type { Services } from '../composition/services.js';
import { HeldKeyLostError } from '../store/held-key.js';
import type { StoredAnswer } from '../store/types.js';
import type { Handlers, RegisteredOnceOnly } from './handler.js';
import { registry, scopeOf, sendVersioned } from './pipeline.js';
import { sendError } from './render.js';
import { advance, type AppContext, type Keyed, type Stage, type Validated } from './state.js';

/** The once-only declaration of each POST's handler, by operation. */
export function onceOnlyPolicies(handlers: Handlers): ReadonlyMap<string, RegisteredOnceOnly> {
  const policies = new Map<string, RegisteredOnceOnly>();
  for (const [id, handler] of registry(handlers)) if (handler.onceOnly) policies.set(id, handler.onceOnly);
  return policies;
}

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The headers of an answer that a replay repeats; the rest belong to the request that gets the replay. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after'];

/** Final answers are kept for retries: successes, and the 409s the operation declares final. */
function isFinal(policy: RegisteredOnceOnly, status: number, error?: AppError): boolean {
  if (status >= 200 && status < 300) return true;
  return status === 409 && error !== undefined && policy.finalConflicts.includes(error.error);
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

function replay(ctx: AppContext, requestId: string, answer: StoredAnswer): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.set('Idempotent-Replayed', 'true');
  let body = answer.body;
  if (answer.status >= 400) {
    // a failing envelope's request_id names the request that reads it, as the X-Request-Id header does
    const envelope = JSON.parse(body) as Record<string, unknown>;
    body = JSON.stringify({ ...envelope, request_id: requestId });
  }
  ctx.body = body;
}

/**
 * Executes the request under its claimed key: the handler's work (with the key as its effect's record),
 * or, when an earlier holder's effect is on the key already, the handler's recovery of that answer.
 * Returns the error the answer renders, when it is one the operation keeps.
 */
async function execute(
  ctx: AppContext,
  state: Validated,
  next: (state: Keyed) => Promise<void>,
  policy: RegisteredOnceOnly,
  services: Services,
  resourceId: string | null,
  lease: KeyLease,
): Promise<AppError | undefined> {
  try {
    if (resourceId !== null && 'recover' in policy) {
      // not executed now: the effect is an earlier request's, so this answer is a replay too
      // the recovery gets the key: one that makes its effect anew (a secret) records it there
      sendVersioned(ctx, state, await policy.recover(scopeOf(ctx, state, services, lease.held), resourceId));
      ctx.set('Idempotent-Replayed', 'true');
    } else {
      await next(advance(state, { heldKey: lease.held }));
    }
  } catch (error) {
    if (error instanceof AppError && isFinal(policy, error.status, error)) {
      sendError(ctx, error);
      return error;
    }
    throw error;
  }
  return undefined;
}

/**
 * The idempotency step of an authenticated POST: with an `Idempotency-Key`, the first request executes
 * under the key and its final answer is kept; a retry with the same request gets that answer again
 * (`Idempotent-Replayed: true`), one with a different request 422, and one while the first still executes
 * 409 with `Retry-After`. What makes each POST once-only is its handler's declaration (onceOnly()).
 */
export function idempotency(services: Services, handlers: Handlers): Stage<Validated, Keyed> {
  const policies = onceOnlyPolicies(handlers);
  return async (ctx, state, next) => {
    const { principal, request, operation } = state;
    const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
    if (key === '' || operation.method !== 'post' || !principal)
      return next(advance(state, { heldKey: undefined }));
    const policy = policies.get(request.operationId);
    if (!policy) throw ERRORS.internal();
    const keys = services.idempotency;
    const claim = await keys.claim(
      principal.tenantId,
      key,
      fingerprintOf({
        method: ctx.method,
        operationId: request.operationId,
        pathParams: request.rawParams,
        body: state.jsonBody,
      }),
    );
    if (claim.outcome === 'mismatch') throw ERRORS.idempotencyKeyReused();
    if (claim.outcome === 'in_use') {
      const wait = Date.parse(claim.lockedUntil) - services.clock.now().getTime();
      throw ERRORS.idempotencyKeyInUse(
        Math.min(Math.max(1, Math.ceil(wait / 1000)), Math.ceil(keys.lockMs / 1000)),
      );
    }
    if (claim.outcome === 'replay') return replay(ctx, state.requestId, claim.answer);

    const { lease, resourceId } = claim;
    let kept = false;
    try {
      const failure = await execute(ctx, state, next, policy, services, resourceId, lease);
      // the work outlived its lock: a retry owns the key now, and this request's effect was fenced off
      if (lease.isLost) throw new HeldKeyLostError();
      if (isFinal(policy, ctx.status, failure) && !(policy.answerHoldsSecret && !failure)) {
        const answer = answerOf(ctx);
        kept = true;
        // the effect is committed and recorded on the key: a retry rebuilds this answer if it is not kept
        await lease.keep(answer).catch((error: unknown) => {
          services.logger.warn(
            { err: error, request_id: state.requestId },
            'an idempotent answer was not kept',
          );
        });
      }
    } catch (error) {
      if (error instanceof HeldKeyLostError) throw ERRORS.idempotencyKeyInUse(1);
      throw error;
    } finally {
      if (!kept) await lease.release().catch(() => undefined);
    }
  };
}
