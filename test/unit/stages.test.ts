/**
 * The contract's steps are typed per stage: a step that needs what an earlier one learns compiles only after
 * it (`npm run typecheck` fails on an unused @ts-expect-error), and each step's fields reach the observers.
 */
import { describe, expect, it } from 'vitest';
import {
  advance,
  type AppContext,
  type Authenticated,
  type BodyRead,
  type Received,
  type Routed,
  type Stage,
  Stages,
} from '../../src/http/state.js';
import type { ContractOperation } from '../../src/http/operations.js';

const operation = { id: 'getRun', authenticated: true } as ContractOperation;
const route: Stage<Received, Routed> = (_ctx, state, next) => next(advance(state, { operation }));
const authenticate: Stage<Routed, Authenticated> = (_ctx, state, next) =>
  next(
    advance(state, {
      addressCharged: false,
      principal: { tenantId: 't', userId: 'u', tokenId: 'k', scopes: null },
    }),
  );
const readBody: Stage<Authenticated, BodyRead> = (_ctx, state, next) =>
  next(advance(state, { jsonBody: { file_id: 'f' } }));

describe('the stages of a request', () => {
  it('compose only in an order where each step has what it reads', () => {
    Stages.start().then(route).then(authenticate).then(readBody);
    // @ts-expect-error: authentication needs the operation, which routing learns
    Stages.start().then(authenticate);
    // @ts-expect-error: the body is read after authentication (a refused request never costs its body)
    Stages.start().then(route).then(readBody);
    // @ts-expect-error: only a chain whose last step answers becomes the middleware
    void Stages.start().then(route).middleware();
  });

  it('hands each step the state the steps before it learnt, and shows it to the observers', async () => {
    const seen: unknown[] = [];
    const answer: Stage<BodyRead, never> = async (_ctx, state) => {
      seen.push(state.operation.id, state.principal?.tenantId, state.jsonBody);
    };
    const middleware = Stages.start().then(route).then(authenticate).then(readBody).then(answer).middleware();
    const ctx = { state: { requestId: 'r', clientAddress: '127.0.0.1' } } as AppContext;
    await middleware(ctx, () => Promise.resolve());
    expect(seen).toEqual(['getRun', 't', { file_id: 'f' }]);
    // the access log and the error boundary read these after the steps ran
    expect(ctx.state.operation?.id).toBe('getRun');
    expect(ctx.state.principal?.tenantId).toBe('t');
  });

  it('stops where a step throws: the later ones do not run', async () => {
    const refuse: Stage<Routed, Authenticated> = () => Promise.reject(new Error('no token'));
    let reached = false;
    const answer: Stage<Authenticated, never> = async () => {
      reached = true;
    };
    const middleware = Stages.start().then(route).then(refuse).then(answer).middleware();
    const ctx = { state: { requestId: 'r', clientAddress: '127.0.0.1' } } as AppContext;
    await expect(middleware(ctx, () => Promise.resolve())).rejects.toThrow('no token');
    expect(reached).toBe(false);
  });
});
