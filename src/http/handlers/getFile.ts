import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getFile: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.getFile(principal.tenantId, pathOf<'getFile'>(request).file_id));
};
