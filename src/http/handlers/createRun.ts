import type { AuthedHandler } from '../api.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createRun: AuthedHandler = async ({ c, ctx, services, principal }) => {
  const body = bodyOf<'createRun'>(c);
  sendOk(ctx, await services.runs.create(principal, body.file_id, body.target, body.options), 201);
};
