import type { AuthedHandler } from '../api.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const completeUpload: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.complete(principal.tenantId, bodyOf<'completeUpload'>(c).upload_id));
};
