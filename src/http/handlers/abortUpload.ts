import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const abortUpload: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.abort(principal.tenantId, pathOf<'abortUpload'>(c).upload_id));
};
