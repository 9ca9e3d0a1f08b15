import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getFile: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.uploads.getFile(principal.tenantId, pathOf<'getFile'>(c).file_id));
};
