import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getUpload: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.get(principal.tenantId, pathOf<'getUpload'>(request).upload_id));
};
