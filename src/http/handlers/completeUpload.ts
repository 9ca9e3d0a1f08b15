import type { AuthedHandler } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const completeUpload: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(
    ctx,
    await services.uploads.complete(principal.tenantId, bodyOf<'completeUpload'>(request).upload_id),
  );
};
