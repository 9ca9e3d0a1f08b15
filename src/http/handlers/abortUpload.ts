import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const abortUpload: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.abort(principal.tenantId, pathOf<'abortUpload'>(request).upload_id));
};
