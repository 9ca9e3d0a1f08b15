import type { AuthedHandler } from '../api.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createUpload: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.start(principal.tenantId, bodyOf<'createUpload'>(c)), 201);
};
