import type { AuthedHandler } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createUpload: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.start(principal.tenantId, bodyOf<'createUpload'>(request)), 201);
};
