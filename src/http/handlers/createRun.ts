import type { AuthedHandler } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createRun: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const body = bodyOf<'createRun'>(request);
  sendOk(ctx, await services.runs.create(principal, body.file_id, body.target, body.options), 201);
};
