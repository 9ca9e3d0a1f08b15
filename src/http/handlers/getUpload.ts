import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getUpload: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.get(principal.tenantId, pathOf<'getUpload'>(c).upload_id));
};
